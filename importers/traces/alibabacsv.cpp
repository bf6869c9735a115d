// SPDX-License-Identifier: Apache-2.0
#include "alibabacsv.h"

#include "csvreader.h"
#include "importers/badvalues.h"
#include "importers/kubenames.h"
#include "importers/namedvalue.h"
#include "importers/progressthrottle.h"
#include "importers/quotedtext.h"

#include <simdjson.h>

#include <array>
#include <charconv>
#include <fstream>
#include <limits>
#include <sstream>
#include <unordered_map>
#include <vector>

namespace fleet::importers {
namespace {

using model::CoreResource;

constexpr std::string_view kNodeHeader = "sn,cpu_milli,memory_mib,gpu,model";
constexpr std::string_view kPodHeader
    = "name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,creation_time,deletion_time,scheduled_time";
constexpr std::string_view kShortPodHeader = "name,cpu_milli,memory_mib,num_gpu,gpu_milli";

constexpr std::int64_t kMiB = 1024 * 1024;
// The FGD simulator's node YAML gives every node `pods: 1001`.
constexpr std::int64_t kTracePodsPerNode = 1001;
constexpr const char* kGpuModelLabel = "alibabacloud.com/gpu-card-model";
constexpr const char* kGpuCountResource = "alibabacloud.com/gpu-count";
constexpr std::size_t kRowsPerProgressCheck = 512;

std::string_view stripLineEnd(std::string_view line) noexcept
{
    if (line.substr(0, 3) == "\xEF\xBB\xBF")
        line.remove_prefix(3);
    while (!line.empty() && (line.back() == '\r' || line.back() == '\n'))
        line.remove_suffix(1);
    return line;
}

// The column names of the header, split (the header itself is plain ASCII).
std::vector<std::string> headerColumns(std::string_view header)
{
    std::vector<std::string> columns;
    std::size_t start = 0;
    while (true) {
        const std::size_t comma = header.find(',', start);
        columns.emplace_back(header.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start));
        if (comma == std::string_view::npos)
            break;
        start = comma + 1;
    }
    return columns;
}

// Parses and validates rows. A bad field is recorded (BadValueList, importers/badvalues.h,
// as the kubectl JSON importer's invalid quantities are) and reading goes on, so that the
// file is refused once with every bad value named; a field already found bad is not checked
// again, and a check across fields is skipped when one of them is bad.
class RowParser {
public:
    /// `checkUtf8`: the text is not all valid UTF-8, so every field is checked, to name the
    /// bad ones (a valid file, the usual case, is checked once as a whole instead).
    RowParser(const std::string& file, std::vector<std::string> columns, bool checkUtf8)
        : m_file(file)
        , m_columns(std::move(columns))
        , m_checkUtf8(checkUtf8)
    {
    }

    /// False when the row cannot be read field by field (a wrong column count, recorded).
    bool startRow(std::size_t line, const std::vector<std::string_view>& fields)
    {
        m_line = line;
        m_fields = &fields;
        m_badColumns = 0;
        if (fields.size() != m_columns.size()) {
            m_bad.add({ m_line, "",
                "expected " + std::to_string(m_columns.size()) + " columns (" + joinedColumns() + "), found "
                    + std::to_string(fields.size()) });
            return false;
        }
        if (m_checkUtf8) {
            for (std::size_t c = 0; c < fields.size(); ++c) {
                if (!simdjson::validate_utf8(fields[c].data(), fields[c].size()))
                    fail(c, "not valid UTF-8: " + quotedText(fields[c]) + " (trace CSV files must be UTF-8)");
            }
        }
        return true;
    }

    [[nodiscard]] std::string_view text(std::size_t column) const { return (*m_fields)[column]; }
    [[nodiscard]] bool isBad(std::size_t column) const noexcept { return (m_badColumns >> column) & 1U; }

    /// The field's text, which must not be empty; else records "expected <what>, ..." and
    /// returns an empty view.
    [[nodiscard]] std::string_view requiredText(std::size_t column, const char* what)
    {
        if (isBad(column))
            return {};
        const std::string_view t = text(column);
        if (t.empty())
            fail(column, std::string("expected ") + what + ", found an empty field");
        return t;
    }

    /// A non-negative integer; `allowEmpty` turns an empty field into -1. A bad field
    /// gives 0 (recorded).
    std::int64_t integer(std::size_t column, bool allowEmpty = false)
    {
        if (isBad(column))
            return 0;
        const std::string_view t = text(column);
        if (t.empty()) {
            if (allowEmpty)
                return -1;
            return fail(column, "expected a non-negative integer, found an empty field");
        }
        if (t.front() == '-')
            return fail(column, "expected a non-negative integer, found the negative value " + quotedText(t));
        std::int64_t value = 0;
        const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), value);
        if (ec == std::errc::result_out_of_range)
            return fail(column, "value " + quotedText(t) + " is too large");
        if (ec != std::errc() || end != t.data() + t.size())
            return fail(column, "expected a non-negative integer, found " + quotedText(t));
        return value;
    }

    /// A GPU count (num_gpu, gpu), small enough that its milli-GPU fit in 32 bits.
    std::int64_t gpuCount(std::size_t column)
    {
        const std::int64_t gpus = integer(column);
        if (gpus > std::numeric_limits<std::int32_t>::max() / 1000)
            return fail(column, "expected a GPU count, found " + quotedText(text(column)) + ", which is too large");
        return gpus;
    }

    /// memory_mib in bytes, checking that the product fits.
    std::int64_t mebibytes(std::size_t column)
    {
        const std::int64_t mib = integer(column);
        if (mib > std::numeric_limits<std::int64_t>::max() / kMiB)
            return fail(column, "value " + quotedText(text(column)) + " MiB is too large to count in bytes");
        return mib * kMiB;
    }

    /// Records a bad value in `column` of this row; returns 0 (the value used for it).
    std::int64_t fail(std::size_t column, std::string message)
    {
        m_badColumns |= 1U << column;
        m_bad.add({ m_line, "column " + std::to_string(column + 1) + " (" + m_columns[column] + ")", std::move(message) });
        return 0;
    }

    [[nodiscard]] std::size_t line() const noexcept { return m_line; }
    /// Throws the ImportError listing every bad value recorded, if there was one.
    void raiseIfBad() const
    {
        if (!m_bad.empty())
            m_bad.raise(m_file);
    }
    /// True once a bad value was recorded: rows are still checked, no longer kept.
    [[nodiscard]] bool anyBad() const noexcept { return !m_bad.empty(); }

private:
    std::string joinedColumns() const
    {
        std::string s;
        for (const auto& c : m_columns)
            s += (s.empty() ? "" : ",") + c;
        return s;
    }

    const std::string& m_file;
    std::vector<std::string> m_columns;
    bool m_checkUtf8;
    std::size_t m_line = 0;
    const std::vector<std::string_view>* m_fields = nullptr;
    std::uint32_t m_badColumns = 0; // of this row, bit per column (the headers have at most 11)
    BadValueList m_bad;
};

struct NodeRow {
    std::string name;
    std::int64_t cpuMilli = 0;
    std::int64_t memoryBytes = 0;
    std::int32_t gpuCount = 0;
    std::string model;
};

struct PodRow {
    std::string name;
    std::int64_t cpuMilli = 0;
    std::int64_t memoryBytes = 0;
    std::int32_t gpuCount = 0;
    std::int64_t gpuMilli = 0; // total: num_gpu x gpu_milli
    model::PodPhase phase = model::PodPhase::Pending;
    std::vector<std::string> allowedModels; // from gpu_spec
};

model::PodPhase parsePhase(RowParser& row, std::size_t column)
{
    const std::string_view t = row.text(column);
    if (row.isBad(column))
        return model::PodPhase::Pending;
    if (const auto* phase = findNamedValue(kPodPhaseNames, t))
        return phase->value;
    row.fail(column, "expected a pod phase (" + namedValueList(kPodPhaseNames) + "), found " + quotedText(t));
    return model::PodPhase::Pending;
}

void readNodes(CsvReader& reader, const std::string& file, std::string_view header, bool checkUtf8, model::ClusterStore& store,
    ImportReport& report, ProgressThrottle& throttle)
{
    RowParser row(file, headerColumns(header), checkUtf8);
    std::vector<std::string_view> fields;
    std::vector<NodeRow> nodes;
    std::size_t rows = 0;
    std::unordered_map<std::string, std::size_t> lineByName;
    std::vector<std::string> warnings;
    while (reader.next(fields)) {
        if (!row.startRow(reader.recordLine(), fields))
            continue;
        NodeRow n;
        n.name = std::string(row.requiredText(0, "a node name"));
        // No Kubernetes name holds a control character (importers/kubenames.h).
        if (std::string problem = controlCharacterProblem(n.name, "the node name"); !problem.empty())
            row.fail(0, std::move(problem));
        n.cpuMilli = row.integer(1);
        n.memoryBytes = row.mebibytes(2);
        n.gpuCount = static_cast<std::int32_t>(row.gpuCount(3));
        n.model = std::string(row.text(4));
        if (!row.isBad(0)) {
            if (auto [it, added] = lineByName.emplace(n.name, row.line()); !added)
                row.fail(0, "duplicate node name " + quotedText(n.name) + ", first on line " + std::to_string(it->second));
            else if (store.findNode(n.name).isValid())
                row.fail(0, "node " + quotedText(n.name) + " is already in the cluster (loaded from another file)");
        }
        if (n.gpuCount > 0 && n.model.empty())
            warnings.push_back(file + ":" + std::to_string(row.line()) + ": node " + escapedText(n.name) + " has "
                + std::to_string(n.gpuCount) + " GPUs but no GPU model; kept with an unknown model");
        if (n.gpuCount == 0 && !n.model.empty())
            warnings.push_back(file + ":" + std::to_string(row.line()) + ": node " + escapedText(n.name) + " names GPU model "
                + escapedText(n.model) + " but has no GPU; kept without GPUs");
        if (!row.anyBad())
            nodes.push_back(std::move(n));
        if (++rows % kRowsPerProgressCheck == 0)
            throttle.tick(reader.offset());
    }
    throttle.tick(reader.offset());
    row.raiseIfBad(); // the whole file, never part of it

    // Every row is valid: add them all (nothing below can fail on valid rows).
    const model::ResourceKey gpuCountKey = store.resources().keyFor(kGpuCountResource);
    store.reserve(store.nodeCount() + nodes.size(), store.podCount());
    model::NodeRecord r;
    for (const NodeRow& n : nodes) {
        r.clear();
        r.name = n.name;
        if (!n.model.empty())
            r.labels.emplace_back(kGpuModelLabel, n.model);
        r.labels.emplace_back("beta.kubernetes.io/os", "linux");
        r.labels.emplace_back("kubernetes.io/hostname", n.name);
        r.labels.emplace_back("kubernetes.io/os", "linux");
        r.allocatable.setCore(CoreResource::Cpu, n.cpuMilli);
        r.allocatable.setCore(CoreResource::Memory, n.memoryBytes);
        r.allocatable.setCore(CoreResource::Gpu, std::int64_t { n.gpuCount } * 1000);
        r.allocatable.setCore(CoreResource::Pods, kTracePodsPerNode);
        // A device plugin advertises its resource only on nodes that have the device.
        if (n.gpuCount > 0)
            r.allocatable.set(gpuCountKey, n.gpuCount);
        r.capacity = r.allocatable;
        r.ready = model::Readiness::True;
        r.gpuModel = n.model;
        r.gpuCount = n.gpuCount;
        store.addNode(r);
    }
    report.nodesRead += nodes.size();
    for (auto& w : warnings)
        report.warn(std::move(w));
}

void readPods(CsvReader& reader, const std::string& file, std::string_view header, bool shortList, bool checkUtf8,
    model::ClusterStore& store, ImportReport& report, ProgressThrottle& throttle)
{
    RowParser row(file, headerColumns(header), checkUtf8);
    std::vector<std::string_view> fields;
    std::vector<PodRow> pods;
    std::size_t rows = 0;
    std::unordered_map<std::string, std::size_t> lineByName;
    while (reader.next(fields)) {
        if (!row.startRow(reader.recordLine(), fields))
            continue;
        PodRow p;
        p.name = std::string(row.requiredText(0, "a pod name"));
        if (std::string problem = controlCharacterProblem(p.name, "the pod name"); !problem.empty())
            row.fail(0, std::move(problem));
        if (!row.isBad(0))
            if (auto [it, added] = lineByName.emplace(p.name, row.line()); !added)
                row.fail(0, "duplicate pod name " + quotedText(p.name) + ", first on line " + std::to_string(it->second));
        p.cpuMilli = row.integer(1);
        p.memoryBytes = row.mebibytes(2);
        const std::int64_t numGpu = row.gpuCount(3);
        const std::int64_t gpuMilli = row.integer(4);
        // Source: SOURCE.md of the trace and the FGD paper, section 2: a task shares a GPU
        // only when it asks for part of one GPU; multi-GPU tasks take whole GPUs.
        const bool gpuFieldsRead = !row.isBad(3) && !row.isBad(4);
        if (gpuFieldsRead && numGpu == 0 && gpuMilli != 0)
            row.fail(4, "expected 0 for a pod without GPUs (num_gpu 0), found " + quotedText(row.text(4)));
        else if (gpuFieldsRead && numGpu == 1 && (gpuMilli < 1 || gpuMilli > 1000))
            row.fail(4, "expected a share of one GPU between 1 and 1000 milli-GPU, found " + quotedText(row.text(4)));
        else if (gpuFieldsRead && numGpu > 1 && gpuMilli != 1000)
            row.fail(4,
                "expected 1000 (whole GPUs) for a pod with " + std::to_string(numGpu)
                    + " GPUs: only one-GPU pods share a GPU; found " + quotedText(row.text(4)));
        // Only a row whose GPU fields passed the checks above has a product to keep: a
        // rejected one may hold any 64-bit gpu_milli, whose product overflows (libFuzzer found
        // "2,262143333334252"); its row is failed and never committed.
        p.gpuCount = static_cast<std::int32_t>(numGpu);
        p.gpuMilli = gpuFieldsRead && !row.isBad(4) ? numGpu * gpuMilli : 0;
        if (!shortList) {
            const std::string_view spec = row.isBad(5) ? std::string_view() : row.text(5);
            if (!spec.empty()) {
                std::size_t start = 0;
                while (true) {
                    const std::size_t bar = spec.find('|', start);
                    const std::string_view model
                        = spec.substr(start, bar == std::string_view::npos ? std::string_view::npos : bar - start);
                    if (model.empty()) {
                        row.fail(5, "expected GPU models separated by '|', found an empty model in " + quotedText(spec));
                        break;
                    }
                    p.allowedModels.emplace_back(model);
                    if (bar == std::string_view::npos)
                        break;
                    start = bar + 1;
                }
                if (numGpu == 0 && !row.isBad(3) && !row.isBad(5))
                    row.fail(5, "a pod without GPUs (num_gpu 0) cannot ask for GPU models " + quotedText(spec));
            }
            if (!row.isBad(6) && row.text(6).empty())
                row.fail(6, "expected a QoS class (LS, BE, Burstable or Guaranteed), found an empty field");
            p.phase = parsePhase(row, 7);
            for (std::size_t c = 8; c <= 10; ++c)
                (void)row.integer(c, /*allowEmpty=*/true);
        }
        if (!row.anyBad())
            pods.push_back(std::move(p));
        if (++rows % kRowsPerProgressCheck == 0)
            throttle.tick(reader.offset());
    }
    throttle.tick(reader.offset());
    row.raiseIfBad(); // the whole file, never part of it

    const model::ResourceKey gpuCountKey = store.resources().keyFor(kGpuCountResource);
    store.reserve(store.nodeCount(), store.podCount() + pods.size());
    model::PodRecord r;
    for (PodRow& p : pods) {
        r.clear();
        r.namespaceName = "default";
        r.name = std::move(p.name);
        r.phase = p.phase;
        r.request.setCore(CoreResource::Cpu, p.cpuMilli);
        r.request.setCore(CoreResource::Memory, p.memoryBytes);
        r.request.setCore(CoreResource::Gpu, p.gpuMilli);
        if (p.gpuCount > 0)
            r.request.set(gpuCountKey, p.gpuCount);
        // A one-GPU pod asking for part of it shares that GPU with others (FGD paper, section 2).
        if (p.gpuCount == 1 && p.gpuMilli < 1000)
            r.gpuShareMilli = static_cast<std::int32_t>(p.gpuMilli);
        if (!p.allowedModels.empty()) {
            model::PodRecord::Requirement req;
            req.key = kGpuModelLabel;
            req.op = model::SelectorOperator::In;
            req.values = std::move(p.allowedModels);
            r.requiredAffinityTerms.push_back({ std::move(req) });
        }
        store.addPod(r);
    }
    report.podsRead += pods.size();
}

} // namespace

AlibabaCsvKind alibabaCsvKind(std::string_view firstLine) noexcept
{
    const std::string_view header = stripLineEnd(firstLine);
    if (header == kNodeHeader)
        return AlibabaCsvKind::NodeList;
    if (header == kPodHeader)
        return AlibabaCsvKind::PodList;
    if (header == kShortPodHeader)
        return AlibabaCsvKind::ShortPodList;
    return AlibabaCsvKind::Unknown;
}

bool isAlibabaCsvHeader(std::string_view firstLine) noexcept
{
    return alibabaCsvKind(firstLine) != AlibabaCsvKind::Unknown;
}

void importAlibabaCsvText(std::string_view text, const std::string& sourceName, model::ClusterStore& store, ImportReport& report,
    ImportProgress* progress)
{
    if (auto binary = binaryFileMessage(text))
        throw ImportError(sourceName, 0, "", *binary);
    // One pass over the whole text (simdjson, several GB/s); only a file that fails it is
    // checked field by field, to name the place.
    const bool checkUtf8 = !simdjson::validate_utf8(text.data(), text.size());
    ProgressThrottle throttle(progress, text.size());
    CsvReader reader(text);
    std::vector<std::string_view> fields;
    try {
        if (!reader.next(fields))
            throw ImportError(sourceName, 1, "", "the file is empty: expected a header line");
        // The header is compared as text so that the message can quote it.
        std::string header;
        for (const auto& f : fields)
            header += (header.empty() ? "" : ",") + std::string(f);
        const AlibabaCsvKind kind = alibabaCsvKind(header);
        switch (kind) {
        case AlibabaCsvKind::NodeList:
            readNodes(reader, sourceName, kNodeHeader, checkUtf8, store, report, throttle);
            break;
        case AlibabaCsvKind::PodList:
            readPods(reader, sourceName, kPodHeader, false, checkUtf8, store, report, throttle);
            break;
        case AlibabaCsvKind::ShortPodList:
            readPods(reader, sourceName, kShortPodHeader, true, checkUtf8, store, report, throttle);
            break;
        case AlibabaCsvKind::Unknown:
            throw ImportError(sourceName, 1, "",
                "unknown header " + quotedText(header) + ": expected one of the Alibaba GPU trace headers \""
                    + std::string(kNodeHeader) + "\" (node list), \"" + std::string(kPodHeader) + "\" (pod list) or \""
                    + std::string(kShortPodHeader) + "\" (multigpu pod list)");
        }
    } catch (const CsvSyntaxError& e) {
        throw ImportError(sourceName, e.line(), "character " + std::to_string(e.column()), e.what());
    }
    report.bytesRead += text.size();
    throttle.finish();
}

void importAlibabaCsvFile(const std::string& path, model::ClusterStore& store, ImportReport& report, ImportProgress* progress)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw ImportError(path, 0, "", "cannot open the file for reading");
    std::ostringstream buffer;
    buffer << in.rdbuf();
    if (in.bad())
        throw ImportError(path, 0, "", "cannot read the file");
    const std::string text = std::move(buffer).str();
    importAlibabaCsvText(text, path, store, report, progress);
}

} // namespace fleet::importers
