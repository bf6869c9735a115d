// SPDX-License-Identifier: Apache-2.0
#include "keptnodesmodel.h"

#include "views/itemmodels/itemmodelroles.h"

#include "model/figures.h"
#include "model/plan/evictionrules.h"

#include <algorithm>
#include <numeric>
#include <set>
#include <unordered_map>

namespace fleet::views {

namespace {

QString fromView(std::string_view s)
{
    return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size()));
}

void appendLower(std::string& out, std::string_view s)
{
    for (const char c : s)
        out += (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
}

// Index ids: 0 for a group row, 1 + the group's index for a node row.
constexpr quintptr kGroupRowId = 0;

} // namespace

KeptNodesModel::KeptNodesModel(QObject* parent)
    : QAbstractItemModel(parent)
{
}

std::shared_ptr<const KeptNodesIndex> KeptNodesIndex::build(
    std::shared_ptr<const model::ClusterStore> store, std::shared_ptr<const std::vector<model::KeptNode>> kept)
{
    auto index = std::make_shared<KeptNodesIndex>();
    const std::vector<model::KeptNode>& entries = *kept;
    const model::ClusterStore& s = *store;
    std::unordered_map<std::string, int> byCode;
    for (const model::KeptGroup& g : model::keptByCode(entries)) {
        byCode.emplace(g.code, static_cast<int>(index->groups.size()));
        index->groups.push_back({ g, {} });
        index->groups.back().members.reserve(static_cast<std::size_t>(g.nodes));
    }
    const std::size_t n = entries.size();
    index->entryGroup.resize(n);
    index->pods.resize(n);
    index->search.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
        const model::KeptNode& k = entries[i];
        const std::string groupCode = model::keptGroupCode(k.reason);
        const int g = byCode.at(groupCode);
        index->entryGroup[i] = g;
        index->groups[static_cast<std::size_t>(g)].members.push_back(static_cast<int>(i));
        if (k.pod.isValid())
            index->pods[i] = model::podKey(s, k.pod);
        std::string& text = index->search[i];
        appendLower(text, s.nodeName(k.node));
        text += '\t';
        appendLower(text, index->pods[i]);
        text += '\t';
        appendLower(text, k.reason.code());
        text += '\t';
        appendLower(text, groupCode);
        text += '\t';
        appendLower(text, k.reason.message);
    }
    // Per column, the dense rank of each entry's text (equal texts share one): a sort compares
    // two integers, and ties fall back to the entry's index.
    auto rankBy = [n](std::vector<std::uint32_t>& rank, auto text) {
        std::vector<std::uint32_t> order(n);
        std::iota(order.begin(), order.end(), 0u);
        std::sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) { return text(a) < text(b); });
        rank.assign(n, 0);
        std::uint32_t r = 0;
        for (std::size_t i = 0; i < n; ++i) {
            if (i > 0 && text(order[i - 1]) < text(order[i]))
                ++r;
            rank[order[i]] = r;
        }
    };
    rankBy(index->rank[0], [&](std::uint32_t e) { return s.nodeName(entries[e].node); });
    rankBy(index->rank[1], [&](std::uint32_t e) { return std::string_view(index->pods[e]); });
    rankBy(index->rank[2], [&](std::uint32_t e) { return std::string_view(entries[e].reason.message); });
    index->store = std::move(store);
    index->kept = std::move(kept);
    return index;
}

void KeptNodesModel::setKept(
    std::shared_ptr<const model::ClusterStore> store, std::shared_ptr<const std::vector<model::KeptNode>> kept)
{
    setIndex(store && kept ? KeptNodesIndex::build(std::move(store), std::move(kept)) : nullptr);
}

void KeptNodesModel::setIndex(std::shared_ptr<const KeptNodesIndex> index)
{
    beginResetModel();
    m_index = std::move(index);
    m_groups.clear();
    if (m_index) {
        for (const KeptNodesIndex::Group& g : m_index->groups) {
            QString description = fromView(model::keptGroupDescription(g.info.kind));
            // "no node passes every filter" alone names no filter: the one its entries name most.
            if (const std::string blocking = model::keptGroupBlockingText(g.info); !blocking.empty())
                description += tr("; most common blocking filter: %1").arg(QString::fromStdString(blocking));
            m_groups.push_back({ {}, QString::fromStdString(g.info.code), description, g.members.size(), g.info.kind });
        }
    }
    applyFilters();
    endResetModel();
}

void KeptNodesModel::setNodeMask(std::shared_ptr<const std::vector<std::uint8_t>> mask)
{
    beginResetModel();
    m_mask = std::move(mask);
    applyFilters();
    endResetModel();
}

void KeptNodesModel::setTextFilter(const QString& text)
{
    beginResetModel();
    m_text = text.trimmed();
    m_needle.clear();
    appendLower(m_needle, m_text.toStdString());
    applyFilters();
    endResetModel();
}

bool KeptNodesModel::passes(int entry) const
{
    if (m_mask) {
        const std::size_t n = (*m_index->kept)[static_cast<std::size_t>(entry)].node.index();
        if (n >= m_mask->size() || (*m_mask)[n] == 0)
            return false;
    }
    return m_needle.empty() || m_index->search[static_cast<std::size_t>(entry)].find(m_needle) != std::string::npos;
}

void KeptNodesModel::applyFilters()
{
    m_shownCount = 0;
    for (std::size_t g = 0; g < m_groups.size(); ++g) {
        std::vector<int>& shown = m_groups[g].shown;
        shown.clear();
        for (const int e : info(static_cast<int>(g)).members)
            if (passes(e))
                shown.push_back(e);
        m_shownCount += shown.size();
    }
    sortShown();
}

std::string_view KeptNodesModel::nodeNameView(int entry) const
{
    return m_index->store->nodeName((*m_index->kept)[static_cast<std::size_t>(entry)].node);
}

void KeptNodesModel::sortShown()
{
    m_rows.clear();
    for (std::size_t g = 0; g < m_groups.size(); ++g)
        if (!m_groups[g].shown.empty())
            m_rows.push_back(static_cast<int>(g));
    const bool descending = m_sortOrder == Qt::DescendingOrder;
    // Ties keep the unsorted order (groups most nodes first, entries by node id): stable sorts,
    // with the comparison reversed rather than the result.
    auto ordered = [descending](const auto& a, const auto& b) { return descending ? b < a : a < b; };
    switch (m_sortColumn) {
    case ReasonColumn:
        std::stable_sort(
            m_rows.begin(), m_rows.end(), [&](int a, int b) { return ordered(info(a).info.code, info(b).info.code); });
        break;
    case CountColumn:
        std::stable_sort(m_rows.begin(), m_rows.end(), [&](int a, int b) {
            return ordered(
                m_groups[static_cast<std::size_t>(a)].shown.size(), m_groups[static_cast<std::size_t>(b)].shown.size());
        });
        break;
    case DescriptionColumn:
        std::stable_sort(m_rows.begin(), m_rows.end(), [&](int a, int b) {
            return ordered(model::keptGroupDescription(info(a).info.kind), model::keptGroupDescription(info(b).info.kind));
        });
        break;
    default:
        break;
    }
    for (Group& g : m_groups) {
        if (m_sortColumn < 0 || m_sortColumn >= ColumnCount) {
            std::sort(g.shown.begin(), g.shown.end()); // the result's order
            continue;
        }
        const std::vector<std::uint32_t>& rank = m_index->rank[m_sortColumn];
        std::sort(g.shown.begin(), g.shown.end(), [&](int a, int b) {
            const std::uint32_t ra = rank[static_cast<std::size_t>(a)], rb = rank[static_cast<std::size_t>(b)];
            return ra != rb ? ordered(ra, rb) : a < b;
        });
    }
    m_groupRow.assign(m_groups.size(), -1);
    for (std::size_t r = 0; r < m_rows.size(); ++r)
        m_groupRow[static_cast<std::size_t>(m_rows[r])] = static_cast<int>(r);
}

void KeptNodesModel::sort(int column, Qt::SortOrder order)
{
    // Persistent indexes (the view's selection and current row) follow their rows.
    struct Where {
        int group;
        int entry; // -1 for a group row
    };
    const QModelIndexList before = persistentIndexList();
    std::vector<Where> where;
    where.reserve(static_cast<std::size_t>(before.size()));
    for (const QModelIndex& i : before) {
        if (i.internalId() == kGroupRowId)
            where.push_back({ m_rows[static_cast<std::size_t>(i.row())], -1 });
        else
            where.push_back(
                { static_cast<int>(i.internalId() - 1), m_groups[i.internalId() - 1].shown[static_cast<std::size_t>(i.row())] });
    }
    emit layoutAboutToBeChanged({}, QAbstractItemModel::VerticalSortHint);
    m_sortColumn = column;
    m_sortOrder = order;
    sortShown();
    QModelIndexList after;
    after.reserve(before.size());
    for (qsizetype k = 0; k < before.size(); ++k) {
        const Where& w = where[static_cast<std::size_t>(k)];
        const int groupRow = m_groupRow[static_cast<std::size_t>(w.group)];
        if (w.entry < 0) {
            after.push_back(createIndex(groupRow, before[k].column(), kGroupRowId));
            continue;
        }
        const std::vector<int>& shown = m_groups[static_cast<std::size_t>(w.group)].shown;
        const auto it = std::find(shown.begin(), shown.end(), w.entry);
        after.push_back(
            createIndex(static_cast<int>(it - shown.begin()), before[k].column(), static_cast<quintptr>(w.group) + 1));
    }
    changePersistentIndexList(before, after);
    emit layoutChanged({}, QAbstractItemModel::VerticalSortHint);
}

std::vector<std::size_t> KeptNodesModel::shownEntries() const
{
    std::vector<std::size_t> out;
    out.reserve(m_shownCount);
    for (const int g : m_rows)
        for (const int e : m_groups[static_cast<std::size_t>(g)].shown)
            out.push_back(static_cast<std::size_t>(e));
    return out;
}

QModelIndex KeptNodesModel::index(int row, int column, const QModelIndex& parent) const
{
    if (row < 0 || column < 0 || column >= ColumnCount)
        return {};
    if (!parent.isValid())
        return row < static_cast<int>(m_rows.size()) ? createIndex(row, column, kGroupRowId) : QModelIndex();
    if (parent.internalId() != kGroupRowId || parent.column() != 0)
        return {};
    const int g = m_rows[static_cast<std::size_t>(parent.row())];
    if (row >= static_cast<int>(m_groups[static_cast<std::size_t>(g)].shown.size()))
        return {};
    return createIndex(row, column, static_cast<quintptr>(g) + 1);
}

QModelIndex KeptNodesModel::parent(const QModelIndex& child) const
{
    if (!child.isValid() || child.internalId() == kGroupRowId)
        return {};
    return createIndex(m_groupRow[child.internalId() - 1], 0, kGroupRowId);
}

int KeptNodesModel::rowCount(const QModelIndex& parent) const
{
    if (!parent.isValid())
        return static_cast<int>(m_rows.size());
    if (parent.internalId() != kGroupRowId || parent.column() != 0)
        return 0;
    return static_cast<int>(m_groups[static_cast<std::size_t>(m_rows[static_cast<std::size_t>(parent.row())])].shown.size());
}

int KeptNodesModel::columnCount(const QModelIndex&) const
{
    return ColumnCount;
}

QString KeptNodesModel::nodeName(int entry) const
{
    return fromView(nodeNameView(entry));
}

QString KeptNodesModel::entryText(int entry, int column) const
{
    const model::KeptNode& k = (*m_index->kept)[static_cast<std::size_t>(entry)];
    switch (column) {
    case ReasonColumn:
        return nodeName(entry);
    case CountColumn:
        return QString::fromStdString(m_index->pods[static_cast<std::size_t>(entry)]);
    case DescriptionColumn:
        return QString::fromStdString(k.reason.message);
    default:
        return {};
    }
}

QString KeptNodesModel::groupText(const Group& g, int column) const
{
    switch (column) {
    case ReasonColumn:
        return g.code;
    case CountColumn: {
        const QString shown = QString::fromStdString(model::formatCount(static_cast<std::int64_t>(g.shown.size())));
        if (g.shown.size() == g.total)
            return shown;
        return tr("%1 of %2").arg(shown, QString::fromStdString(model::formatCount(static_cast<std::int64_t>(g.total))));
    }
    case DescriptionColumn:
        return g.description;
    default:
        return {};
    }
}

QVariant KeptNodesModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid())
        return {};
    if (index.internalId() == kGroupRowId) {
        const Group& g = m_groups[static_cast<std::size_t>(m_rows[static_cast<std::size_t>(index.row())])];
        switch (role) {
        case Qt::DisplayRole:
            return groupText(g, index.column());
        case kSortRole:
            return index.column() == CountColumn ? QVariant(static_cast<qint64>(g.shown.size()))
                                                 : QVariant(groupText(g, index.column()));
        case Qt::ToolTipRole:
            return tr("%1: %2 (%3)").arg(g.code, g.description, fromView(model::reasonKindInfo(g.kind).plugin));
        case kEntryRole:
            return qint64(-1);
        case Qt::TextAlignmentRole:
            return index.column() == CountColumn ? QVariant(int(Qt::AlignRight | Qt::AlignVCenter)) : QVariant();
        default:
            return {};
        }
    }
    const Group& g = m_groups[index.internalId() - 1];
    const int entry = g.shown[static_cast<std::size_t>(index.row())];
    switch (role) {
    case Qt::DisplayRole:
    case kSortRole:
        return entryText(entry, index.column());
    case Qt::ToolTipRole:
        return tr("%1 [%2]").arg(entryText(entry, DescriptionColumn),
            QString::fromStdString((*m_index->kept)[static_cast<std::size_t>(entry)].reason.code()));
    case kNodeNameRole:
        return nodeName(entry);
    case kEntryRole:
        return static_cast<qint64>(entry);
    default:
        return {};
    }
}

QVariant KeptNodesModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case ReasonColumn:
        return tr("Reason / node");
    case CountColumn:
        return tr("Nodes / pod");
    case DescriptionColumn:
        return tr("Description / message");
    default:
        return {};
    }
}

QString KeptNodesModel::rowsText(const QModelIndexList& rows) const
{
    // (group row, -1) for a group, (group row, node row) for a node: sorted, that is model order.
    std::set<std::pair<int, int>> chosen;
    for (const QModelIndex& i : rows) {
        if (!i.isValid() || i.model() != this)
            continue;
        if (i.internalId() == kGroupRowId) {
            chosen.emplace(i.row(), -1);
            const Group& g = m_groups[static_cast<std::size_t>(m_rows[static_cast<std::size_t>(i.row())])];
            for (std::size_t r = 0; r < g.shown.size(); ++r)
                chosen.emplace(i.row(), static_cast<int>(r));
        } else {
            chosen.emplace(m_groupRow[i.internalId() - 1], i.row());
        }
    }
    QString out;
    for (const auto& [groupRow, row] : chosen) {
        const Group& g = m_groups[static_cast<std::size_t>(m_rows[static_cast<std::size_t>(groupRow)])];
        if (row < 0) {
            out += groupText(g, ReasonColumn) + u'\t' + groupText(g, CountColumn) + u'\t' + groupText(g, DescriptionColumn)
                + u'\n';
            continue;
        }
        const int entry = g.shown[static_cast<std::size_t>(row)];
        out += entryText(entry, ReasonColumn) + u'\t' + entryText(entry, CountColumn) + u'\t'
            + entryText(entry, DescriptionColumn) + u'\t'
            + QString::fromStdString((*m_index->kept)[static_cast<std::size_t>(entry)].reason.code()) + u'\n';
    }
    return out;
}

} // namespace fleet::views
