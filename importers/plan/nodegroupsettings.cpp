// SPDX-License-Identifier: Apache-2.0
#include "nodegroupsettings.h"

#include "importers/optionfile.h"
#include "importers/yamlinput.h"

namespace fleet::importers {

std::vector<model::NodeGroupMinimum> parseNodeGroupSettings(const std::string& text, const std::string& name)
{
    auto fail = [&](const std::string& where, const std::string& what) -> NodeGroupSettingsError {
        return NodeGroupSettingsError(name + ": at " + where + ": " + what);
    };
    YAML::Node root;
    try {
        root = loadBoundedYaml(text);
    } catch (const YamlInputError& e) {
        throw NodeGroupSettingsError(name + ": " + e.what());
    }
    if (!root.IsMap())
        throw fail("$", "expected a mapping with the key nodeGroups");
    for (const auto& kv : root)
        if (kv.first.as<std::string>() != "nodeGroups")
            throw fail("$." + kv.first.as<std::string>(), "unknown key (expected nodeGroups)");
    const YAML::Node groups = root["nodeGroups"];
    if (!groups || !groups.IsSequence())
        throw fail("$.nodeGroups", "expected a list of {label, name, minSize}");
    std::vector<model::NodeGroupMinimum> out;
    for (std::size_t i = 0; i < groups.size(); ++i) {
        const YAML::Node g = groups[i];
        const std::string at = "$.nodeGroups[" + std::to_string(i) + "]";
        if (!g.IsMap())
            throw fail(at, "expected a mapping {label, name, minSize}");
        model::NodeGroupMinimum m;
        m.labelKey = "eks.amazonaws.com/nodegroup";
        bool hasName = false, hasMin = false;
        for (const auto& kv : g) {
            const std::string key = kv.first.as<std::string>();
            if (!kv.second.IsScalar())
                throw fail(at + "." + key, "expected a scalar");
            const std::string value = kv.second.as<std::string>();
            if (key == "label") {
                if (value != "eks.amazonaws.com/nodegroup" && value != "karpenter.sh/nodepool")
                    throw fail(at + ".label", "expected eks.amazonaws.com/nodegroup or karpenter.sh/nodepool, got \"" + value + "\"");
                m.labelKey = value;
            } else if (key == "name") {
                if (value.empty())
                    throw fail(at + ".name", "empty");
                m.value = value;
                hasName = true;
            } else if (key == "minSize") {
                std::size_t used = 0;
                long long v = -1;
                try {
                    v = std::stoll(value, &used);
                } catch (const std::exception&) {
                    used = 0;
                }
                if (used != value.size() || v < 0 || v > 1000000)
                    throw fail(at + ".minSize", "expected an integer from 0 to 1000000, got \"" + value + "\"");
                m.minNodes = static_cast<std::int32_t>(v);
                hasMin = true;
            } else {
                throw fail(at + "." + key, "unknown key (expected label, name, minSize)");
            }
        }
        if (!hasName || !hasMin)
            throw fail(at, std::string("missing ") + (!hasName ? "name" : "minSize"));
        for (std::size_t j = 0; j < out.size(); ++j)
            if (out[j].labelKey == m.labelKey && out[j].value == m.value)
                throw fail(at, "the node group " + m.labelKey + "=" + m.value + " is given twice (also at $.nodeGroups[" + std::to_string(j)
                        + "]); give each group once");
        out.push_back(std::move(m));
    }
    return out;
}

std::vector<model::NodeGroupMinimum> readNodeGroupSettings(const std::string& path)
{
    std::string text;
    try {
        text = readOptionFile(path, OptionFileKind::NodeGroups);
    } catch (const OptionFileError& e) {
        throw NodeGroupSettingsError(e.what());
    }
    return parseNodeGroupSettings(text, path);
}

} // namespace fleet::importers
