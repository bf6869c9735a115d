#include "labelselector.h"

// Contract stub: the parser and matcher land with the model work of issue 5.
namespace fleet::model {

LabelSelector parseLabelSelector(std::string_view text)
{
    if (!text.empty())
        throw LabelSelectorError("label selectors are not implemented yet", 0);
    return {};
}

bool labelSelectorMatches(const LabelSelector& selector, std::span<const Label>, const StringPool&)
{
    return selector.empty();
}

std::vector<std::uint8_t> nodesMatchingSelector(const ClusterStore& store, const LabelSelector& selector)
{
    return std::vector<std::uint8_t>(store.nodeCount(), selector.empty() ? 1 : 0);
}

} // namespace fleet::model
