// SPDX-License-Identifier: Apache-2.0
#pragma once
// The nodes a consolidation keeps, grouped by why (model/search/keptgroups.h, the groups of
// `plan consolidate`'s summary), as a two-level tree:
//   a group row    reason code ("insufficient-nvidia.com/gpu", "disruption-budget:*"), the
//                  count of its nodes shown, the reason's plain description
//   a node row     node name, the pod that keeps it (namespace/name, empty when none), the message
//
// Design note. At 100,000 nodes a consolidation keeps about 80,000: no item per row is stored.
// What depends on the entries only is built once, off the GUI thread (KeptNodesIndex: the groups,
// the pod keys, one lower-case search text per entry and, per column, each entry's rank in the
// order of that column's text: about 0.3 s at 80,000 entries). The model then filters (a node
// mask from the filter field, a text) and sorts over integer lists, not through a
// QSortFilterProxyModel: a proxy asks data() for a QString per row and comparison (about 1.3
// million calls for one sort); here a sort compares ranks, a filter scans the search texts, each
// in tens of milliseconds at 80,000 entries (bench_keptnodes).

#include "model/search/keptgroups.h"

#include <QAbstractItemModel>
#include <QString>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace fleet::views {

/// What the model needs of a list of kept entries, computed once: build() on any thread, then
/// KeptNodesModel::setIndex() on the GUI thread. Immutable once built.
struct KeptNodesIndex {
    struct Group {
        model::KeptGroup info;
        std::vector<int> members; // indices into kept, in the result's order (node id)
    };
    static constexpr int kColumns = 3;

    std::shared_ptr<const model::ClusterStore> store;
    std::shared_ptr<const std::vector<model::KeptNode>> kept;
    std::vector<Group> groups; // model::keptByCode's order: most nodes first
    std::vector<int> entryGroup; // per entry: its group
    std::vector<std::string> pods; // per entry: "namespace/name", or "" when none
    std::vector<std::string> search; // per entry: node, pod, code, group code, message in ASCII lower case
    std::vector<std::uint32_t> rank[kColumns]; // per column, per entry: the dense rank of its text (node, pod, message)

    /// Builds the index of `kept` over `store` (both non-null). O(kept log kept). Thread: any.
    [[nodiscard]] static std::shared_ptr<const KeptNodesIndex> build(
        std::shared_ptr<const model::ClusterStore> store, std::shared_ptr<const std::vector<model::KeptNode>> kept);
};

/// A read-only tree model over a consolidation's kept nodes. Thread: GUI thread.
class KeptNodesModel : public QAbstractItemModel {
    Q_OBJECT
public:
    enum Column : int { ReasonColumn = 0, CountColumn, DescriptionColumn, ColumnCount };
    /// A node row's node name (QString); invalid on group rows.
    static constexpr int kNodeNameRole = Qt::UserRole + 30;
    /// A node row's index into kept() (qint64); -1 on group rows.
    static constexpr int kEntryRole = Qt::UserRole + 31;

    explicit KeptNodesModel(QObject* parent = nullptr);

    /// Shows the entries of `index` (null clears). Keeps the filters, applies the current sort:
    /// O(kept) plus a sort of each group's shown entries by rank.
    void setIndex(std::shared_ptr<const KeptNodesIndex> index);
    /// setIndex(KeptNodesIndex::build(store, kept)) here, on the calling thread (null clears).
    void setKept(std::shared_ptr<const model::ClusterStore> store, std::shared_ptr<const std::vector<model::KeptNode>> kept);
    [[nodiscard]] std::shared_ptr<const std::vector<model::KeptNode>> kept() const noexcept
    {
        return m_index ? m_index->kept : nullptr;
    }
    [[nodiscard]] std::shared_ptr<const model::ClusterStore> store() const noexcept { return m_index ? m_index->store : nullptr; }

    /// Shows only the entries whose node's byte in `mask` is 1 (views::FilterField's mask, one
    /// byte per node id); null shows every node.
    void setNodeMask(std::shared_ptr<const std::vector<std::uint8_t>> mask);
    /// Shows only the entries whose node, pod, code, group code or message contains `text`,
    /// ignoring ASCII case (Kubernetes names are ASCII); blank shows every entry.
    void setTextFilter(const QString& text);
    [[nodiscard]] QString textFilter() const { return m_text; }

    /// The entries shown (after the filters) and in all.
    [[nodiscard]] std::size_t shownEntryCount() const noexcept { return m_shownCount; }
    [[nodiscard]] std::size_t entryCount() const noexcept { return m_index ? m_index->kept->size() : 0; }
    /// The shown entries' indices into kept(), in the order of the rows (groups, then their
    /// nodes). What Export writes.
    [[nodiscard]] std::vector<std::size_t> shownEntries() const;

    /// Group rows sort by code, shown count or description; node rows within each group by node,
    /// pod or message; ties keep the result's order (node id). Before any sort() the groups come
    /// most nodes first (as `plan consolidate` lists them) and node rows in node id order.
    void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override;

    /// `rows` as text, one line per row in model order, columns separated by tabs: a group row
    /// as "code, nodes, description" followed by its shown node rows; a node row as "node, pod,
    /// message, code". A row named twice (a group and one of its nodes) is written once.
    [[nodiscard]] QString rowsText(const QModelIndexList& rows) const;

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    struct Group {
        std::vector<int> shown; // the members that pass the filters, in the sorted order
        QString code, description;
        std::size_t total = 0; // the group's entries, shown or not
        model::ReasonKind kind = model::ReasonKind::Count;
    };
    [[nodiscard]] const KeptNodesIndex::Group& info(int group) const { return m_index->groups[static_cast<std::size_t>(group)]; }
    void applyFilters(); // shown lists and group rows, then sort; no model signals
    void sortShown(); // orders m_rows and each group's shown list by m_sortColumn
    [[nodiscard]] bool passes(int entry) const;
    [[nodiscard]] QString nodeName(int entry) const;
    [[nodiscard]] std::string_view nodeNameView(int entry) const;
    [[nodiscard]] QString entryText(int entry, int column) const;
    [[nodiscard]] QString groupText(const Group& g, int column) const;

    std::shared_ptr<const KeptNodesIndex> m_index;
    std::shared_ptr<const std::vector<std::uint8_t>> m_mask;
    QString m_text;
    std::string m_needle; // m_text in ASCII lower case
    std::vector<Group> m_groups; // parallel to m_index->groups
    std::vector<int> m_rows; // top-level rows: group indices with a shown member
    std::vector<int> m_groupRow; // per group: its row, or -1 when hidden
    std::size_t m_shownCount = 0;
    int m_sortColumn = -1;
    Qt::SortOrder m_sortOrder = Qt::AscendingOrder;
};

} // namespace fleet::views
