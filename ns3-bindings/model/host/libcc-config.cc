// SPDX-License-Identifier: GPL-2.0-only

#include "libcc-config.h"

#include <ns3/boolean.h>
#include <ns3/data-rate.h>
#include <ns3/double.h>
#include <ns3/log.h>
#include <ns3/nstime.h>
#include <ns3/object-factory.h>
#include <ns3/uinteger.h>

#include <cmath>
#include <cstdio>
#include <limits>
#include <mutex>
#include <sstream>
#include <stdexcept>
#include <vector>

namespace ns3
{

namespace
{

const std::string kPrefix = "ns3::LibccConfig::";

// A value of an attribute of unit as libcc's base-unit number: a LibccValue,
// or the ns-3 value type of the unit. False for any other type.
bool
ToBase(libcc_unit unit, const AttributeValue& value, double& v)
{
    if (auto p = dynamic_cast<const LibccValue*>(&value))
    {
        v = p->Get();
        return true;
    }
    switch (unit)
    {
    case LIBCC_UNIT_BPS:
        if (auto p = dynamic_cast<const DataRateValue*>(&value))
        {
            v = static_cast<double>(p->Get().GetBitRate());
            return true;
        }
        return false;
    case LIBCC_UNIT_NS:
        if (auto p = dynamic_cast<const TimeValue*>(&value))
        {
            v = p->Get().ToDouble(Time::NS);
            return true;
        }
        return false;
    case LIBCC_UNIT_BYTES:
    case LIBCC_UNIT_COUNT:
        if (auto p = dynamic_cast<const UintegerValue*>(&value))
        {
            v = static_cast<double>(p->Get());
            return true;
        }
        return false;
    case LIBCC_UNIT_BOOL:
        if (auto p = dynamic_cast<const BooleanValue*>(&value))
        {
            v = p->Get() ? 1.0 : 0.0;
            return true;
        }
        return false;
    default:
        if (auto p = dynamic_cast<const DoubleValue*>(&value))
        {
            v = p->Get();
            return true;
        }
        return false;
    }
}

// Writes a base-unit number into a LibccValue or the unit's ns-3 value type.
bool
FromBase(libcc_unit unit, double v, AttributeValue& value)
{
    if (auto p = dynamic_cast<LibccValue*>(&value))
    {
        p->Set(v);
        return true;
    }
    switch (unit)
    {
    case LIBCC_UNIT_BPS:
        if (auto p = dynamic_cast<DataRateValue*>(&value))
        {
            p->Set(DataRate(static_cast<uint64_t>(std::llround(v))));
            return true;
        }
        return false;
    case LIBCC_UNIT_NS:
        if (auto p = dynamic_cast<TimeValue*>(&value))
        {
            p->Set(NanoSeconds(static_cast<int64_t>(std::llround(v))));
            return true;
        }
        return false;
    case LIBCC_UNIT_BYTES:
    case LIBCC_UNIT_COUNT:
        if (auto p = dynamic_cast<UintegerValue*>(&value))
        {
            p->Set(static_cast<uint64_t>(std::llround(v)));
            return true;
        }
        return false;
    case LIBCC_UNIT_BOOL:
        if (auto p = dynamic_cast<BooleanValue*>(&value))
        {
            p->Set(v != 0);
            return true;
        }
        return false;
    default:
        if (auto p = dynamic_cast<DoubleValue*>(&value))
        {
            p->Set(v);
            return true;
        }
        return false;
    }
}

std::string
Format(libcc_unit unit, double v)
{
    char buf[64];
    if (libcc_format_value(unit, v, buf, sizeof buf) != LIBCC_OK)
    {
        std::snprintf(buf, sizeof buf, "%g", v);
    }
    return buf;
}

// One libcc parameter's unit and range.
class LibccChecker : public AttributeChecker
{
  public:
    explicit LibccChecker(const libcc_param_desc& d)
        : m_unit(d.unit)
        , m_min(d.min)
        , m_max(d.max)
    {
    }

    libcc_unit GetUnit() const
    {
        return m_unit;
    }

    bool Check(const AttributeValue& value) const override
    {
        double v;
        if (!ToBase(m_unit, value, v) || !(v >= m_min && v <= m_max))
        {
            return false; // NaN fails the range test too
        }
        if (m_unit == LIBCC_UNIT_COUNT || m_unit == LIBCC_UNIT_BOOL)
        {
            return v == std::floor(v);
        }
        return true;
    }

    std::string GetValueTypeName() const override
    {
        return "ns3::LibccValue";
    }

    bool HasUnderlyingTypeInformation() const override
    {
        return true;
    }

    std::string GetUnderlyingTypeInformation() const override
    {
        return std::string(m_unit == LIBCC_UNIT_RATIO ? "ratio" : libcc_unit_name(m_unit)) +
               " in libcc's units, " + Format(m_unit, m_min) + " .. " + Format(m_unit, m_max);
    }

    Ptr<AttributeValue> Create() const override
    {
        return ns3::Create<LibccValue>();
    }

    bool Copy(const AttributeValue& source, AttributeValue& destination) const override
    {
        auto src = dynamic_cast<const LibccValue*>(&source);
        auto dst = dynamic_cast<LibccValue*>(&destination);
        if (!src || !dst)
        {
            return false;
        }
        *dst = *src;
        return true;
    }

  private:
    libcc_unit m_unit;
    double m_min;
    double m_max;
};

// Reads and writes one parameter of a LibccConfig in libcc's base unit.
// Not on any packet path: only used when attributes are set or read.
class LibccParamAccessor : public AttributeAccessor
{
  public:
    LibccParamAccessor(std::string name, libcc_unit unit)
        : m_name(std::move(name))
        , m_unit(unit)
    {
    }

    bool Set(ObjectBase* object, const AttributeValue& value) const override
    {
        auto cfg = dynamic_cast<LibccConfig*>(object);
        double v;
        if (!cfg || !cfg->MutableParams() || !ToBase(m_unit, value, v))
        {
            return false;
        }
        return libcc_params_set_value(cfg->MutableParams(), m_name.c_str(), v) == LIBCC_OK;
    }

    bool Get(const ObjectBase* object, AttributeValue& value) const override
    {
        auto cfg = dynamic_cast<const LibccConfig*>(object);
        if (!cfg || !cfg->GetParams())
        {
            return false;
        }
        return FromBase(m_unit, cfg->Get(m_name), value);
    }

    bool HasGetter() const override
    {
        return true;
    }

    bool HasSetter() const override
    {
        return true;
    }

  private:
    std::string m_name;
    libcc_unit m_unit;
};

// Every parameter of an algorithm: libcc's common ones first, then its own.
bool
AllParams(const std::string& algorithm, std::vector<const libcc_param_desc*>& out)
{
    const libcc_param_desc* table = nullptr;
    size_t n = 0;
    if (libcc_algorithm_params(algorithm.c_str(), &table, &n) != LIBCC_OK)
    {
        return false;
    }
    const libcc_param_desc* common = nullptr;
    size_t nc = 0;
    libcc_common_params(&common, &nc);
    out.clear();
    for (size_t i = 0; i < nc; i++)
    {
        out.push_back(&common[i]);
    }
    for (size_t i = 0; i < n; i++)
    {
        out.push_back(&table[i]);
    }
    return true;
}

TypeId
BuildTypeId(const std::string& algorithm)
{
    std::vector<const libcc_param_desc*> params;
    if (!AllParams(algorithm, params))
    {
        throw std::invalid_argument("unknown libcc algorithm '" + algorithm + "'");
    }
    TypeId tid = TypeId(kPrefix + algorithm);
    tid.SetParent<LibccConfig>().SetGroupName("Libcc").AddConstructor<LibccConfig>();
    for (const libcc_param_desc* pd : params)
    {
        const libcc_param_desc& d = *pd;
        std::string help = std::string(d.doc ? d.doc : "") + " [" +
                           (d.unit == LIBCC_UNIT_RATIO ? "ratio" : libcc_unit_name(d.unit)) +
                           ", default " + Format(d.unit, d.def) + ", range " +
                           Format(d.unit, d.min) + " .. " + Format(d.unit, d.max) + "]";
        tid.AddAttribute(d.name, help, LibccValue(d.def),
                         Create<LibccParamAccessor>(d.name, d.unit), MakeLibccChecker(d));
    }
    return tid;
}

// Registers every algorithm's TypeId when the library loads.
struct RegisterAtLoad
{
    RegisterAtLoad()
    {
        LibccConfig::RegisterAll();
    }
} g_registerAtLoad;

} // namespace

NS_LOG_COMPONENT_DEFINE("LibccConfig");
NS_OBJECT_ENSURE_REGISTERED(LibccConfig);

LibccValue::LibccValue()
    : m_value(0)
{
}

LibccValue::LibccValue(double value)
    : m_value(value)
{
}

double
LibccValue::Get() const
{
    return m_value;
}

void
LibccValue::Set(double value)
{
    m_value = value;
}

Ptr<AttributeValue>
LibccValue::Copy() const
{
    return ns3::Create<LibccValue>(*this);
}

std::string
LibccValue::SerializeToString(Ptr<const AttributeChecker> checker) const
{
    auto c = dynamic_cast<const LibccChecker*>(PeekPointer(checker));
    char buf[64];
    double back;
    // libcc's readable text when it reads back as exactly this value
    // (Config::SetDefault keeps values as text and reads them again).
    if (c && libcc_format_value(c->GetUnit(), m_value, buf, sizeof buf) == LIBCC_OK &&
        libcc_parse_value(c->GetUnit(), buf, &back) == LIBCC_OK && back == m_value)
    {
        return buf;
    }
    const char* unit = !c                                 ? ""
                       : c->GetUnit() == LIBCC_UNIT_BPS   ? "bps"
                       : c->GetUnit() == LIBCC_UNIT_NS    ? "ns"
                       : c->GetUnit() == LIBCC_UNIT_BYTES ? "B"
                                                          : "";
    std::snprintf(buf, sizeof buf, "%.17g%s", m_value, unit);
    return buf;
}

bool
LibccValue::DeserializeFromString(std::string value, Ptr<const AttributeChecker> checker)
{
    auto c = dynamic_cast<const LibccChecker*>(PeekPointer(checker));
    double v;
    if (!c || libcc_parse_value(c->GetUnit(), value.c_str(), &v) != LIBCC_OK || !std::isfinite(v))
    {
        NS_LOG_LOGIC("refused '" << value << "'");
        return false;
    }
    m_value = v;
    return true;
}

Ptr<const AttributeChecker>
MakeLibccChecker(const libcc_param_desc& desc)
{
    return Create<LibccChecker>(desc);
}

TypeId
LibccConfig::GetTypeId()
{
    static TypeId tid = TypeId("ns3::LibccConfig").SetParent<Object>().SetGroupName("Libcc");
    return tid;
}

TypeId
LibccConfig::GetTypeIdFor(const std::string& algorithm)
{
    TypeId tid;
    if (TypeId::LookupByNameFailSafe(kPrefix + algorithm, &tid))
    {
        return tid;
    }
    return BuildTypeId(algorithm);
}

void
LibccConfig::RegisterAll()
{
    for (const char* const* a = libcc_algorithms(); a && *a; a++)
    {
        try
        {
            GetTypeIdFor(*a);
        }
        catch (const std::invalid_argument&)
        {
            // An algorithm without a parameter table yet: nothing to expose.
        }
    }
}

Ptr<LibccConfig>
LibccConfig::Create(const std::string& algorithm, const std::string& assignments)
{
    ObjectFactory f;
    f.SetTypeId(GetTypeIdFor(algorithm));
    Ptr<LibccConfig> cfg = f.Create<LibccConfig>();
    if (!cfg->GetParams())
    {
        throw std::invalid_argument("libcc: cannot create parameters for '" + algorithm + "'");
    }
    std::string err;
    if ((!assignments.empty() && !cfg->Parse(assignments, &err)) || !cfg->Validate(&err))
    {
        throw std::invalid_argument(err);
    }
    return cfg;
}

LibccConfig::LibccConfig()
    : m_params(nullptr)
{
}

LibccConfig::~LibccConfig()
{
    libcc_params_del(m_params);
}

libcc_params*
LibccConfig::MutableParams()
{
    if (!m_params)
    {
        // The factory sets our TypeId after construction and before the
        // attributes, so the algorithm is known by the first Set.
        std::string name = GetInstanceTypeId().GetName();
        if (name.compare(0, kPrefix.size(), kPrefix) != 0)
        {
            return nullptr;
        }
        m_algorithm = name.substr(kPrefix.size());
        if (libcc_params_new(&m_params, m_algorithm.c_str()) != LIBCC_OK)
        {
            m_params = nullptr;
        }
    }
    return m_params;
}

const std::string&
LibccConfig::GetAlgorithm() const
{
    return m_algorithm;
}

const libcc_params*
LibccConfig::GetParams() const
{
    return const_cast<LibccConfig*>(this)->MutableParams();
}

bool
LibccConfig::Set(const std::string& name, const std::string& value, std::string* err)
{
    libcc_params* p = MutableParams();
    int rc = p ? libcc_params_set(p, name.c_str(), value.c_str()) : LIBCC_ERR_INVALID_ARG;
    if (rc != LIBCC_OK && err)
    {
        *err = p ? libcc_params_error(p) : "libcc: no algorithm";
        if (err->empty())
        {
            *err = std::string(libcc_strerror(rc)) + ": " + name + "=" + value;
        }
    }
    return rc == LIBCC_OK;
}

bool
LibccConfig::Parse(const std::string& assignments, std::string* err)
{
    libcc_params* p = MutableParams();
    int rc = p ? libcc_params_parse(p, assignments.c_str()) : LIBCC_ERR_INVALID_ARG;
    if (rc != LIBCC_OK && err)
    {
        *err = p ? libcc_params_error(p) : "libcc: no algorithm";
        if (err->empty())
        {
            *err = std::string(libcc_strerror(rc)) + ": " + assignments;
        }
    }
    return rc == LIBCC_OK;
}

bool
LibccConfig::Validate(std::string* err)
{
    libcc_params* p = MutableParams();
    int rc = p ? libcc_params_validate(p) : LIBCC_ERR_INVALID_ARG;
    if (rc != LIBCC_OK && err)
    {
        *err = p ? libcc_params_error(p) : "libcc: no algorithm";
    }
    return rc == LIBCC_OK;
}

double
LibccConfig::Get(const std::string& name) const
{
    double v = std::nan("");
    const libcc_params* p = GetParams();
    if (p)
    {
        libcc_params_get(p, name.c_str(), &v);
    }
    return v;
}

std::string
LibccConfig::ToAssignments() const
{
    std::vector<const libcc_param_desc*> params;
    std::ostringstream os;
    if (!GetParams() || !AllParams(m_algorithm, params))
    {
        return "";
    }
    for (size_t i = 0; i < params.size(); i++)
    {
        const libcc_param_desc& d = *params[i];
        double v = Get(d.name);
        char buf[64];
        switch (d.unit)
        {
        case LIBCC_UNIT_BPS:
            std::snprintf(buf, sizeof buf, "%.17gbps", v);
            break;
        case LIBCC_UNIT_NS:
            std::snprintf(buf, sizeof buf, "%.17gns", v);
            break;
        case LIBCC_UNIT_BYTES:
            std::snprintf(buf, sizeof buf, "%.17gB", v);
            break;
        case LIBCC_UNIT_BOOL:
            std::snprintf(buf, sizeof buf, "%d", v != 0 ? 1 : 0);
            break;
        default:
            std::snprintf(buf, sizeof buf, "%.17g", v);
            break;
        }
        os << (i ? "," : "") << d.name << "=" << buf;
    }
    return os.str();
}

std::string
LibccConfig::Describe(const std::string& algorithm)
{
    std::vector<const libcc_param_desc*> params;
    std::ostringstream os;
    if (!AllParams(algorithm, params))
    {
        return "  (unknown algorithm)\n";
    }
    for (const libcc_param_desc* pd : params)
    {
        const libcc_param_desc& d = *pd;
        os << "    " << d.name << "=" << Format(d.unit, d.def) << "  [" << Format(d.unit, d.min)
           << " .. " << Format(d.unit, d.max) << "]  " << (d.doc ? d.doc : "") << "\n";
    }
    const libcc_preset_desc* presets = nullptr;
    size_t n = 0;
    if (libcc_algorithm_presets(algorithm.c_str(), &presets, &n) == LIBCC_OK)
    {
        for (size_t i = 0; i < n; i++)
        {
            os << "    preset=" << presets[i].name << "  " << presets[i].doc << ": "
               << presets[i].assignments << "\n";
        }
    }
    return os.str();
}

} // namespace ns3
