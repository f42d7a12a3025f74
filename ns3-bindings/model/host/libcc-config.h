// SPDX-License-Identifier: GPL-2.0-only
//
// LibccConfig: one congestion control algorithm and its parameter values, as
// an ns-3 Object. Every algorithm libcc registers gets its own TypeId,
// "ns3::LibccConfig::<algorithm>", whose attributes are generated from
// libcc's parameter table (names, units, defaults, ranges, documentation), so
// Config::SetDefault, CommandLine (--ns3::LibccConfig::dcqcn::rpg_ai_rate=40Mbps)
// and SetAttribute all work, and libcc stays the single source of truth.
// Every attribute is a LibccValue: libcc's base-unit number, read from the
// same text as --cc ("5KB", "40Mbps", "55us", "1/256") by libcc's parser and
// checked against libcc's range. The ns-3 value types of the unit are
// accepted too: bits/s DataRateValue, ns TimeValue, bytes and counts
// UintegerValue, booleans BooleanValue, ratios DoubleValue.

#ifndef LIBCC_CONFIG_H
#define LIBCC_CONFIG_H

#include <ns3/attribute.h>
#include <ns3/object.h>

#include <libcc/libcc.h>
#include <string>

namespace ns3
{

/**
 * A libcc parameter value, in its base unit (bits/s, ns, bytes, count, 0/1,
 * ratio), kept exactly. From text: libcc_parse_value with the unit of the
 * attribute's checker, so "5KB" reads 5000 and "1/256" 0.00390625; text
 * libcc refuses (a fraction for a count, NaN, a rate without unit) makes
 * DeserializeFromString return false. To text: libcc's readable form when it
 * reads back exactly, else all digits in the base unit.
 */
class LibccValue : public AttributeValue
{
  public:
    LibccValue();
    explicit LibccValue(double value);
    double Get() const;
    void Set(double value);

    Ptr<AttributeValue> Copy() const override;
    std::string SerializeToString(Ptr<const AttributeChecker> checker) const override;
    bool DeserializeFromString(std::string value, Ptr<const AttributeChecker> checker) override;

  private:
    double m_value;
};

/// The checker of one libcc parameter: its unit and range (a count must be
/// whole, a boolean 0 or 1; NaN is never in range).
Ptr<const AttributeChecker> MakeLibccChecker(const libcc_param_desc& desc);

class LibccConfig : public Object
{
  public:
    /// The base TypeId (no parameters); see GetTypeIdFor.
    static TypeId GetTypeId();
    /// "ns3::LibccConfig::<algorithm>" with one attribute per parameter.
    /// Throws std::invalid_argument for an unknown algorithm.
    static TypeId GetTypeIdFor(const std::string& algorithm);
    /// Register the TypeIds of every libcc algorithm (done at load time, so
    /// CommandLine and Config::SetDefault find them).
    static void RegisterAll();

    /// Create with the attribute defaults in force (Config::SetDefault), then
    /// apply "name=value" assignments (libcc syntax: "rpg_ai_rate=40Mbps,
    /// ack_interval=1"). Throws std::invalid_argument with libcc's message
    /// (naming the parameter and its accepted range) on any error.
    static Ptr<LibccConfig> Create(const std::string& algorithm,
                                   const std::string& assignments = "");

    LibccConfig();
    ~LibccConfig() override;

    const std::string& GetAlgorithm() const;
    /// The validated libcc parameter set (owned by this object).
    const libcc_params* GetParams() const;
    /// Set one parameter from text with unit ("40Mbps"); false + *err on error.
    bool Set(const std::string& name, const std::string& value, std::string* err = nullptr);
    /// Apply "name=value" items separated by commas/spaces; false + *err.
    bool Parse(const std::string& assignments, std::string* err = nullptr);
    /// Check the relations between parameters (kmin <= kmax, ...) that one
    /// Set cannot; false + *err naming them. Create runs it, so a program
    /// refuses such a set before its run instead of at the first object.
    bool Validate(std::string* err = nullptr);
    /// A parameter's value in its base unit (bits/s, ns, bytes, number).
    double Get(const std::string& name) const;

    /// Every parameter as libcc "name=value" assignments in base units
    /// (exact), e.g. to configure switches from this object.
    std::string ToAssignments() const;

    /// One line per parameter: "name  unit  default  [min, max]  doc", for
    /// --help texts.
    static std::string Describe(const std::string& algorithm);

    /// Used by the generated attribute accessors.
    libcc_params* MutableParams();

  private:
    std::string m_algorithm;
    libcc_params* m_params;
};

} // namespace ns3

#endif
