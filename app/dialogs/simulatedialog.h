// SPDX-License-Identifier: Apache-2.0
#pragma once
// File > Open Simulated Cluster: the node count, the seed and the regions of a simulated fleet.

#include <QDialog>

#include <cstdint>

class QLineEdit;
class QSpinBox;
class QDialogButtonBox;

namespace fleet::app {

/// Asks for the node count (1 to kMaximumNodes, as `--simulate` takes) and the seed (any
/// unsigned 64-bit integer, as `--seed` takes) of a simulated cluster. OK is disabled while
/// the seed is not a valid number, so nothing is silently dropped or clamped. The region count
/// (1 to 4, as `--regions` takes) is 1, one regional cluster, unless changed.
/// Thread: GUI thread.
class SimulateDialog : public QDialog {
    Q_OBJECT
public:
    /// The largest node count, the command line's (`--simulate` up to 10,000,000).
    static constexpr int kMaximumNodes = 10'000'000;

    explicit SimulateDialog(QWidget* parent = nullptr);

    [[nodiscard]] std::size_t nodeCount() const;
    [[nodiscard]] std::uint64_t seed() const;
    void setNodeCount(std::size_t nodes);
    void setSeed(std::uint64_t seed);
    [[nodiscard]] std::size_t regionCount() const;
    void setRegionCount(std::size_t regions);
    /// The seed as typed parses as an unsigned 64-bit integer.
    [[nodiscard]] bool seedIsValid() const;

    [[nodiscard]] QSpinBox* nodesField() const noexcept { return m_nodes; }
    [[nodiscard]] QLineEdit* seedField() const noexcept { return m_seed; }
    [[nodiscard]] QSpinBox* regionsField() const noexcept { return m_regions; }

private:
    void updateOk();

    QSpinBox* m_nodes = nullptr;
    QLineEdit* m_seed = nullptr;
    QSpinBox* m_regions = nullptr;
    QDialogButtonBox* m_buttons = nullptr;
};

} // namespace fleet::app
