// SPDX-License-Identifier: Apache-2.0
#pragma once
// Layer: per-node level of detail, for what is on screen only.
//
// Design note (DESIGN.md "Views"): the texel image shows every node as one colour; once a
// cell is a few pixels wide a one-pixel gap in the background colour separates
// neighbouring cells (kGapMinPx), so same-coloured nodes no longer merge into one block;
// once a cell is kDetailMinPx wide, each visible node's cell shows, inside a frame of its
// metric colour, one tile per accelerator device (nvidia.com/gpu, the larger of
// allocatable and capacity; aws.amazon.com/neuron devices; nvidia.com/mig-* slices) filled
// with its allocation, its pods as sub-cells sized by their request and coloured by
// workload, and its name where it fits (kNameMinPx). kubectl JSON does not say which device
// a pod holds, so requested GPUs fill the tiles in order, by count (milli-GPU: a pod asking
// for half a GPU half-fills one tile); devices in capacity but not allocatable (unhealthy)
// are drawn crossed out.
// Technique: QPainter, visible cells only, no antialiasing, at most kMaxDetailNodes nodes a
// frame (beyond, only gaps are drawn), with the raster engine into a view-sized image drawn
// once over the GL frame (the OpenGL paint engine issues a draw call per small rectangle:
// about 100 ms a frame for 930 detailed nodes on llvmpipe, tests/bench/bench_map).
// Pod sub-cells: the node's pod area is a strip of kPodRows rows read left to right, top to
// bottom, as one line of length rows x width; each pod takes a length proportional to its
// share of the node (the GPU share for a GPU pod, else the CPU share), so areas are exact
// and a pod that wraps is drawn as two pieces.

#include "views/map/layers/maplayer.h"

#include <QColor>
#include <QFont>
#include <QImage>
#include <QRectF>
#include <QStaticText>

#include <algorithm>
#include <array>
#include <cstdint>
#include <unordered_map>

class QFontMetrics;

namespace fleet::views {

class NodeDetailLayer final : public MapLayer {
public:
    static constexpr double kGapMinPx = 4.0;
    static constexpr double kDetailMinPx = 18.0;
    static constexpr double kBandMinPx = 30.0; // the metric-coloured middle band from here
    static constexpr double kNameMinPx = 44.0;
    static constexpr int kMaxDetailNodes = 6000;

    void sceneChanged(const MapScene& scene, unsigned changes) override;
    /// Tiles, pods and names follow the cluster; dimmed cells the filter's mask.
    [[nodiscard]] unsigned paintDependsOn() const override { return ClusterChanged | MaskChanged; }
    /// Nothing below kGapMinPx a cell.
    [[nodiscard]] bool paintsAnything(const MapScene& scene, const MapCamera& camera) const override
    {
        return scene.hasMap() && camera.pxPerCell() >= kGapMinPx;
    }
    void paint(QPainter& painter, const MapScene& scene, const MapCamera& camera) override;

    /// Accelerator tiles of a node: kind, device count, allocated share of each device.
    struct DeviceTiles {
        enum Kind : std::uint8_t { None, Gpu, Mig, Neuron } kind = None;
        int allocatable = 0; // devices usable
        int capacity = 0; // devices present (>= allocatable)
        double requested = 0; // devices requested (milli-GPU / 1000 for GPUs)
        /// GPUs tracked one by one (model/gpudevices.h: the ledger's device rule, so shares of
        /// one GPU show on the GPU they hold): the first `devicesKnown` tiles' used milli-GPU.
        int devicesKnown = 0;
        std::array<std::int32_t, 64> deviceMilli {};
        /// Share of tile i in [0, 1]: its device's use where known, else filled in order by count.
        [[nodiscard]] double tileShare(int i) const noexcept
        {
            if (i < devicesKnown)
                return std::clamp(deviceMilli[static_cast<std::size_t>(i)] / 1000.0, 0.0, 1.0);
            return std::clamp(requested - i, 0.0, 1.0);
        }
    };
    /// Node n's tiles: GPUs when it has nvidia.com/gpu, else MIG slices, else Neuron devices.
    [[nodiscard]] static DeviceTiles deviceTiles(const MapScene& scene, model::NodeId n) noexcept;
    /// The parts of a detailed cell (`cell`: its rectangle on screen, whole pixels): the
    /// name line, the area above the metric-coloured middle band (name and devices), the
    /// device area, and the pod area below the band. The frame and the band show the
    /// metric colour, so the cell's centre does too.
    struct CellGeometry {
        QRectF name, upper, devices, pods;
    };
    [[nodiscard]] static CellGeometry cellGeometry(const QRectF& cell) noexcept;
    /// A node's name as it fits in `room` px of `fm`: whole; else its first DNS label (the
    /// hostname: "ip-10-7-16-197" of "ip-10-7-16-197.us-west-2.compute.internal", since the
    /// domain is the same for every node of a cluster); else that label elided on the left,
    /// keeping its end, where names of one fleet differ ("...16-197", "...-0042").
    /// User trial: eliding the middle kept the shared parts and dropped the distinguishing one.
    [[nodiscard]] static QString fitNodeName(const QString& name, const QFontMetrics& fm, int room);
    /// Where tile i of node n is drawn, given the node's cell on screen (for tests).
    [[nodiscard]] static QRectF tileRect(const QRectF& cell, const DeviceTiles& tiles, int i) noexcept;
    /// Draws one device tile in `tile` (logical px) as a detailed cell shows it: a free device's
    /// dark box filled from the bottom by `share` (0..1) of it allocated, in the full share
    /// colour. The legend's key uses it, so the key cannot drift from the map. Thread: GUI thread.
    static void drawDeviceTile(QPainter& painter, const QRectF& tile, double share);
    /// Colour of a workload's pods: a categorical palette indexed by WorkloadId.
    [[nodiscard]] static QColor workloadColor(model::WorkloadId w) noexcept;
    /// Width of the metric-coloured frame inside a detailed cell of `cellPx` px.
    [[nodiscard]] static double frameWidth(double cellPx) noexcept
    {
        return cellPx < kBandMinPx ? 2.0 : std::max(3.0, std::floor(cellPx / 10.0));
    }

private:
    void paintDetail(QPainter& painter, const MapScene& scene, const MapCamera& camera);
    void paintNode(QPainter& painter, const MapScene& scene, model::NodeId n, const QRectF& cell, bool name);
    QFont m_font;
    QImage m_canvas; // the raster-engine canvas (see paint())
    // Names fitted to their room (fitNodeName) and laid out once (QStaticText: a pan redraws
    // some 900 names a frame, and drawText() lays each out again every time),
    // by node, with the width and font size they were fitted for; cleared with the cluster.
    struct ElidedName {
        int width = -1;
        int fontPx = -1;
        int lineHeight = 0;
        QStaticText text;
    };
    std::unordered_map<std::uint32_t, ElidedName> m_names;
};

} // namespace fleet::views
