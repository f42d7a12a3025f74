// SPDX-License-Identifier: MIT
// The installed libcc from C++ (tests/install/run.sh): the header must be
// usable as-is (extern "C", no C-only constructs), and RAII wrappers over
// the create/delete pairs must work. Failures print the line and exit 1.
#include <libcc/libcc.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>

#define CHECK(cond)                                                                  \
    do {                                                                             \
        if (!(cond)) {                                                               \
            std::fprintf(stderr, "tiny.cpp:%d: check failed: %s\n", __LINE__, #cond); \
            std::exit(1);                                                            \
        }                                                                            \
    } while (0)

static_assert(LIBCC_VERSION_NUM >= 0x000100, "version macros usable in constant expressions");

struct params_del {
    void operator()(libcc_params *p) const { libcc_params_del(p); }
};
struct rp_del {
    void operator()(libcc_rp *rp) const { libcc_rp_del(rp); }
};
using params_ptr = std::unique_ptr<libcc_params, params_del>;
using rp_ptr = std::unique_ptr<libcc_rp, rp_del>;

static params_ptr make_params(const char *algo)
{
    libcc_params *p = nullptr;
    CHECK(libcc_params_new(&p, algo) == LIBCC_OK);
    return params_ptr(p);
}

int main()
{
    const libcc_version_info *v = libcc_version();
    CHECK(v->num == LIBCC_VERSION_NUM);
    CHECK(std::string(v->str) == LIBCC_VERSION);

    CHECK(std::string(libcc_strerror(LIBCC_ERR_UNKNOWN_PARAM)) !=
          std::string(libcc_strerror(LIBCC_ERR_BAD_UNIT)));

    params_ptr none = make_params("none");
    params_ptr dcqcn = make_params("dcqcn");
    CHECK(std::string(libcc_params_algorithm(dcqcn.get())) == "dcqcn");

    // 40 Mbit/s, the paper's additive increase step, is 4e7 bit/s.
    CHECK(libcc_params_set(dcqcn.get(), "rpg_ai_rate", "40Mbps") == LIBCC_OK);
    double ai = 0;
    CHECK(libcc_params_get(dcqcn.get(), "rpg_ai_rate", &ai) == LIBCC_OK && ai == 40e6);
    // A rate needs a rate unit: 40us is not one.
    CHECK(libcc_params_set(dcqcn.get(), "rpg_ai_rate", "40us") != LIBCC_OK);

    libcc_flow_info flow{};
    flow.flow_id = 1;
    flow.line_rate_bps = 100000000000ull;
    libcc_rp_callbacks cbs{};

    for (const auto *p : {none.get(), dcqcn.get()}) {
        libcc_rp *raw = nullptr;
        CHECK(libcc_rp_new(&raw, p, &flow, &cbs, nullptr, 0) == LIBCC_OK);
        rp_ptr rp(raw);
        CHECK(libcc_rp_rate_bps(rp.get()) == 100000000000ull);
        CHECK(std::string(libcc_rp_algorithm(rp.get())) == libcc_params_algorithm(p));
    }

    // A wire round trip through the HPCC hop format keeps a representable hop.
    libcc_int_wire_format fmt;
    libcc_int_hpcc_format_default(&fmt);
    libcc_int_hop hop{};
    hop.bandwidth_bps = 100000000000ull;
    hop.ts_ns = 1000ull * fmt.ts_unit_ns;
    hop.tx_bytes = 10ull * fmt.bytes_unit;
    hop.qlen_bytes = 3ull * fmt.qlen_unit;
    std::uint8_t wire[8];
    libcc_int_hop back{};
    CHECK(libcc_int_hpcc_encode(&hop, &fmt, wire) == LIBCC_OK);
    CHECK(libcc_int_hpcc_decode(wire, &fmt, &back) == LIBCC_OK);
    CHECK(back.bandwidth_bps == hop.bandwidth_bps);
    CHECK(back.qlen_bytes == hop.qlen_bytes);

    std::printf("tiny.cpp: libcc %s ok\n", v->str);
    return 0;
}
