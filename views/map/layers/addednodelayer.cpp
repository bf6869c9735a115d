// SPDX-License-Identifier: Apache-2.0
#include "addednodelayer.h"

#include "model/figures.h"
#include "model/scheduling/planledger.h"
#include "views/map/layers/planlayer.h"
#include "views/map/layers/selectionlayer.h"
#include "views/map/planmarks.h"

#include <QFontMetrics>
#include <QPainter>

#include <algorithm>
#include <cstdint>
#include <unordered_map>

namespace fleet::views {

namespace {

QString qs(std::string_view v)
{
    return QString::fromUtf8(v.data(), static_cast<qsizetype>(v.size()));
}

QString row(const QString& key, const QString& value)
{
    return QStringLiteral("<tr><td nowrap>%1</td><td>%2</td></tr>").arg(key.toHtmlEscaped(), value.toHtmlEscaped());
}

/// The share a square is filled by: GPU on a GPU node, else the larger of CPU and memory.
double requestedShare(const model::PlanLedger& plan, model::NodeId n)
{
    using model::CoreResource;
    const model::ResourceVector& req = plan.nodeRequested(n);
    const model::ResourceVector& alloc = plan.nodeAllocatable(n);
    auto share = [&](CoreResource r) { return alloc[r] > 0 ? static_cast<double>(req[r]) / static_cast<double>(alloc[r]) : 0.0; };
    const double s = alloc[CoreResource::Gpu] > 0 ? share(CoreResource::Gpu) : std::max(share(CoreResource::Cpu), share(CoreResource::Memory));
    return std::clamp(s, 0.0, 1.0);
}

} // namespace

bool AddedNodeLayer::paintsAnything(const MapScene& scene, const MapCamera&) const
{
    return scene.hasMap() && scene.planMarks && scene.planState && !scene.planMarks->added.empty();
}

void AddedNodeLayer::sceneChanged(const MapScene& scene, unsigned changes)
{
    if ((changes & (ClusterChanged | PlanChanged)) && !paintsAnything(scene, MapCamera {}))
        m_squares.clear();
}

void AddedNodeLayer::paint(QPainter& painter, const MapScene& scene, const MapCamera& camera)
{
    m_squares.clear();
    m_titles.clear();
    if (!paintsAnything(scene, camera))
        return;
    const auto& added = scene.planMarks->added;
    const model::PlanLedger& plan = *scene.planState;
    const QRectF view(0, 0, camera.viewport.width(), camera.viewport.height());
    QFont font = painter.font();
    font.setPointSizeF(std::max(7.0, font.pointSizeF() * 0.85));
    const QFontMetrics fm(font);
    painter.save();
    painter.setFont(font);
    constexpr int kPerRow = 12, kGap = 3, kPad = 5;
    // One box per domain, in the order the domains first appear among the added nodes (an
    // AddNode may add up to 100,000: grouped in one pass).
    std::vector<std::pair<model::DomainId, std::vector<model::NodeId>>> groups;
    std::unordered_map<std::uint32_t, std::size_t> groupOf;
    for (const auto& [node, d] : added) {
        const std::uint32_t key = d.isValid() ? d.index() : UINT32_MAX;
        auto [it, inserted] = groupOf.try_emplace(key, groups.size());
        if (inserted)
            groups.emplace_back(d, std::vector<model::NodeId> {});
        groups[it->second].second.push_back(node);
    }
    // Where the cells are on screen: a box placed outside it hides none.
    const QRectF cellsOnScreen = camera.cellsToWidget(0, 0, scene.layout.width(), scene.layout.height()).normalized().intersected(view);
    std::vector<QRectF> placed; // the boxes drawn so far: the next one does not cover them either
    auto covered = [&](const QRectF& box) {
        double area = 0;
        const QRectF onCells = box.intersected(cellsOnScreen);
        area += onCells.width() * onCells.height();
        for (const QRectF& other : placed) {
            const QRectF o = box.intersected(other);
            area += 4 * o.width() * o.height(); // a box over another hides its squares
        }
        return area;
    };
    for (const auto& [domain, nodes] : groups) {
        const CellRect cells = domain.isValid() ? scene.layout.domainRect(domain) : CellRect {};
        const QRectF r = cells.width > 0 ? camera.cellsToWidget(cells.x, cells.y, cells.width, cells.height).normalized()
                                         : camera.cellsToWidget(0, 0, scene.layout.width(), scene.layout.height()).normalized();
        if (!r.intersects(view))
            continue;
        const int squares = std::min<int>(static_cast<int>(nodes.size()), kMaxSquares);
        const int shown = m_folded ? 0 : squares;
        const int columns = std::min(squares, kPerRow);
        const int rows = (squares + kPerRow - 1) / kPerRow;
        // A triangle says the title folds (pointing down) or unfolds (right) the box.
        const QString title = QStringLiteral("%1 Added by the plan (%2)").arg(m_folded ? QChar(0x25b8) : QChar(0x25be)).arg(nodes.size());
        const QString more = nodes.size() > static_cast<std::size_t>(squares) ? QStringLiteral("+%1 more").arg(nodes.size() - squares) : QString();
        const double width = std::max({ static_cast<double>(columns * (kSquarePx + kGap) - kGap),
                                 static_cast<double>(fm.horizontalAdvance(title)), static_cast<double>(fm.horizontalAdvance(more)) })
            + 2 * kPad;
        // Placed at its unfolded size, so that folding leaves the title where it was clicked.
        const double height = kPad + fm.height() + 2 + rows * (kSquarePx + kGap) + (more.isEmpty() ? 0 : fm.height()) + kPad;
        // Kept inside the view; the first place that hides no cells, in the order a reader looks
        // for it: under the domain, then under, above, right and left of the whole layout
        // (aligned with the domain); else the one that hides the fewest.
        auto inView = [&](double x, double y) {
            return QRectF(std::clamp(x, 2.0, std::max(2.0, view.width() - width - 2)), std::clamp(y, 2.0, std::max(2.0, view.height() - height - 2)),
                width, height);
        };
        const QRectF candidates[] = {
            inView(r.left(), r.bottom() + 2),
            inView(r.left(), cellsOnScreen.bottom() + 2),
            inView(r.left(), cellsOnScreen.top() - 2 - height),
            inView(cellsOnScreen.right() + 2, r.top()),
            inView(cellsOnScreen.left() - 2 - width, r.top()),
            inView(2, view.height() - height - 2),
            inView(view.width() - width - 2, view.height() - height - 2),
        };
        QRectF box = candidates[0];
        double least = covered(box);
        for (const QRectF& c : candidates) {
            if (least <= 0)
                break;
            if (const double a = covered(c); a < least) {
                least = a;
                box = c;
            }
        }
        placed.push_back(box);
        const double x = box.left(), y = box.top();
        if (m_folded)
            box.setHeight(kPad + fm.height() + kPad);
        painter.setPen(QPen(addedColor(), 1.5));
        painter.setBrush(QColor(255, 255, 255, 235));
        painter.drawRoundedRect(box, 3, 3);
        painter.setPen(QColor(20, 60, 60));
        const QRectF titleRect(x + kPad, y + kPad, width - 2 * kPad, fm.height());
        painter.drawText(titleRect, Qt::AlignLeft | Qt::AlignVCenter, title);
        m_titles.push_back(titleRect.adjusted(-kPad, -kPad, kPad, 1));
        for (int i = 0; i < shown; ++i) {
            const QRectF sq(x + kPad + (i % kPerRow) * (kSquarePx + kGap), y + kPad + fm.height() + 2 + (i / kPerRow) * (kSquarePx + kGap),
                kSquarePx, kSquarePx);
            const double share = requestedShare(plan, nodes[static_cast<std::size_t>(i)]);
            painter.setPen(Qt::NoPen);
            painter.setBrush(QColor(210, 240, 238));
            painter.drawRect(sq);
            if (share > 0) {
                painter.setBrush(addedColor());
                painter.drawRect(QRectF(sq.left(), sq.bottom() - sq.height() * share, sq.width(), sq.height() * share));
            }
            const model::NodeId n = nodes[static_cast<std::size_t>(i)];
            // A drag's shading, as PlanLayer washes an infeasible cell.
            if (scene.dragFeasible && n.index() < scene.dragFeasible->size() && (*scene.dragFeasible)[n.index()] == 0) {
                QColor wash = QColor::fromRgb(PlanLayer::kInfeasibleRgb);
                wash.setAlpha(PlanLayer::kInfeasibleAlpha);
                painter.setBrush(wash);
                painter.drawRect(sq);
            }
            QPen dashed(addedColor().darker(140), 1.2, Qt::DashLine);
            painter.setPen(dashed);
            painter.setBrush(Qt::NoBrush);
            painter.drawRect(sq);
            if (n == scene.dragTarget) {
                painter.setPen(QPen(scene.dragTargetFeasible ? PlanLayer::feasibleTargetColor() : PlanLayer::infeasibleTargetColor(), 2.5));
                painter.drawRect(sq.adjusted(-2, -2, 2, 2));
            } else if (n == scene.selected) {
                painter.setPen(QPen(QColor(0, 0, 0, 230), 4.0));
                painter.drawRect(sq.adjusted(-2, -2, 2, 2));
                painter.setPen(QPen(SelectionLayer::outlineColor(), 2.0));
                painter.drawRect(sq.adjusted(-2, -2, 2, 2));
            }
            m_squares.emplace_back(n, sq);
        }
        if (!more.isEmpty() && !m_folded)
            painter.drawText(QRectF(x + kPad, box.bottom() - kPad - fm.height(), width - 2 * kPad, fm.height()), Qt::AlignLeft | Qt::AlignVCenter,
                more);
    }
    painter.restore();
}

bool AddedNodeLayer::titleAt(const QPointF& glPos) const
{
    return std::any_of(m_titles.begin(), m_titles.end(), [&](const QRectF& t) { return t.contains(glPos); });
}

model::NodeId AddedNodeLayer::nodeAt(const QPointF& glPos) const
{
    for (const auto& [n, square] : m_squares)
        if (square.adjusted(-1, -1, 1, 1).contains(glPos))
            return n;
    return {};
}

QString AddedNodeLayer::toolTip(const MapScene& scene, model::NodeId n)
{
    if (!scene.store || !scene.planState || !scene.planMarks || !n.isValid() || n.index() < scene.store->nodeCount()
        || n.index() >= scene.planState->nodeCount())
        return {};
    model::DomainId domain;
    bool listed = false;
    for (const auto& [node, d] : scene.planMarks->added)
        if (node == n) {
            listed = true;
            domain = d;
        }
    if (!listed)
        return {};
    using model::CoreResource;
    const model::PlanLedger& plan = *scene.planState;
    const model::ClusterStore& store = *scene.store;
    const model::NodeId templ = plan.nodeTemplate(n);
    const model::ResourceVector& req = plan.nodeRequested(n);
    const model::ResourceVector& alloc = plan.nodeAllocatable(n);
    QString html = QStringLiteral("<b>%1</b><table>").arg(qs(plan.nodeName(n)).toHtmlEscaped());
    html += row(QStringLiteral("Plan"), QStringLiteral("added by the plan, like %1").arg(qs(store.nodeName(templ))));
    if (scene.topology && domain.isValid() && domain != scene.topology->root()) {
        QStringList path;
        for (model::DomainId d = domain; d.isValid() && d != scene.topology->root(); d = scene.topology->domainParent(d))
            path.prepend(qs(scene.topology->domainName(d)));
        html += row(QStringLiteral("Domain"), path.join(QStringLiteral(" / ")));
    }
    QString type = qs(store.nodeInstanceType(templ));
    if (!plan.nodeGpuModel(n).empty())
        type += QStringLiteral(", %1 x %2").arg(plan.nodeGpuCount(n)).arg(qs(plan.nodeGpuModel(n)));
    if (!type.isEmpty())
        html += row(QStringLiteral("Type"), type);
    html += row(QStringLiteral("CPU"),
        QStringLiteral("%1 / %2").arg(qs(model::formatCpuMillicores(req[CoreResource::Cpu])), qs(model::formatCpuMillicores(alloc[CoreResource::Cpu]))));
    html += row(QStringLiteral("Memory"),
        QStringLiteral("%1 / %2").arg(qs(model::formatBytes(req[CoreResource::Memory])), qs(model::formatBytes(alloc[CoreResource::Memory]))));
    if (alloc[CoreResource::Gpu] > 0)
        html += row(QStringLiteral("GPUs"),
            QStringLiteral("%1 / %2 requested").arg(qs(model::formatGpuMilli(req[CoreResource::Gpu])), qs(model::formatGpuMilli(alloc[CoreResource::Gpu]))));
    html += row(QStringLiteral("Pods"), QStringLiteral("%1 / %2").arg(plan.nodePods(n).size()).arg(alloc[CoreResource::Pods]));
    html += QStringLiteral("</table>");
    return html;
}

} // namespace fleet::views
