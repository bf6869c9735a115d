// SPDX-License-Identifier: Apache-2.0
// The window's what-if flows, driven as a person drives them (desktopsession.h): the real
// fleetscope on a private Xvfb with openbox, real X input through xdotool, and the results read
// from what the program writes (its own File > Save Plan, `screenshot --print-cell`) and shows
// (screenshots as pixels). Each test function starts the program afresh on a simulated
// 2,000-node fleet.

#include "e2e/desktopsession.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>
#include <QtTest>

#include <algorithm>
#include <functional>
#include <optional>
#include <vector>

using fleet::e2e::DesktopSession;
using fleet::e2e::waitUntil;

namespace {

const QStringList kSource { QStringLiteral("--simulate"), QStringLiteral("2000"), QStringLiteral("--seed"), QStringLiteral("3") };
const QSize kWindow(1400, 900);
const QColor kSelectionOutline(0, 230, 255); // views/map/layers/selectionlayer.cpp

struct PodRef {
    QString ns, name, node;
    [[nodiscard]] QString key() const { return ns + QLatin1Char('/') + name; }
};

/// What the test knows of the fleet, from the program's own `summary` and `check-move`.
struct Fleet {
    QStringList nodes;
    QSet<QString> cordoned;
    QList<PodRef> pods; // counted (bound, running) pods
};

bool near(const QColor& a, const QColor& b, int tolerance)
{
    return std::abs(a.red() - b.red()) <= tolerance && std::abs(a.green() - b.green()) <= tolerance
        && std::abs(a.blue() - b.blue()) <= tolerance;
}

QByteArray runFleetscope(const QStringList& args, int* exitCode = nullptr)
{
    QProcess p;
    p.setProcessChannelMode(QProcess::SeparateChannels);
    p.start(DesktopSession::executable(), args);
    p.waitForFinished(120000);
    if (exitCode)
        *exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    return p.readAllStandardOutput();
}

const Fleet& fleetFacts()
{
    static std::optional<Fleet> cached;
    if (cached)
        return *cached;
    Fleet f;
    const QJsonObject summary = QJsonDocument::fromJson(runFleetscope(QStringList { QStringLiteral("summary"), QStringLiteral("--format"),
                                                              QStringLiteral("json"), QStringLiteral("--only"), QStringLiteral("nodes,pods") }
                                                                  + kSource))
                                    .object();
    for (const QJsonValue& n : summary.value(QStringLiteral("nodes")).toArray()) {
        const QJsonObject o = n.toObject();
        f.nodes << o.value(QStringLiteral("name")).toString();
        if (o.value(QStringLiteral("cordoned")).toBool())
            f.cordoned.insert(f.nodes.last());
    }
    for (const QJsonValue& p : summary.value(QStringLiteral("pods")).toArray()) {
        const QJsonObject o = p.toObject();
        if (o.value(QStringLiteral("counted")).toBool() && o.value(QStringLiteral("phase")).toString() == QLatin1String("Running"))
            f.pods.push_back({ o.value(QStringLiteral("namespace")).toString(), o.value(QStringLiteral("name")).toString(),
                o.value(QStringLiteral("node")).toString() });
    }
    cached = f;
    return *cached;
}

/// `fleetscope check-move`: whether the filters let `pod` move to `node`.
bool feasible(const PodRef& pod, const QString& node)
{
    const QJsonObject o = QJsonDocument::fromJson(runFleetscope(QStringList { QStringLiteral("check-move") } + kSource
                                                      + QStringList { QStringLiteral("--pod"), pod.key(), QStringLiteral("--to"), node,
                                                          QStringLiteral("--format"), QStringLiteral("json") }))
                              .object();
    return o.value(QStringLiteral("feasible")).toBool();
}

QStringList actionTypes(const QJsonArray& actions)
{
    QStringList types;
    for (const QJsonValue& a : actions)
        types << a.toObject().value(QStringLiteral("type")).toString();
    return types;
}

/// The node inspector's pod table on the screen: its filter field and its first row, found by
/// the style's drawing (a line edit's white field between two #ababab borders, right above a
/// header's grey gradient; the bottom-most such pair in the right dock).
struct PodsTable {
    QPoint filter; // centre of the "Filter pods" field
    QPoint firstRow; // a point in the first row, in its first (namespace) column
};

bool greyNear(QRgb c, int value, int tolerance)
{
    return qRed(c) == qGreen(c) && qGreen(c) == qBlue(c) && std::abs(qRed(c) - value) <= tolerance;
}

std::optional<PodsTable> findPodsTableAt(const QImage& screen, const QRect& dock, int x)
{
    std::optional<PodsTable> found;
    for (int y = dock.top(); y < dock.bottom() - 60; ++y) {
        auto px = [&](int yy) { return screen.pixel(x, yy); };
        if (!greyNear(px(y), 0xab, 6))
            continue;
        int white = y + 1;
        while (white < dock.bottom() && (greyNear(px(white), 0xff, 0) || greyNear(px(white), 0xed, 3)))
            ++white;
        const int fieldEnd = white; // the lower border
        if (fieldEnd - y < 14 || !greyNear(px(fieldEnd), 0xab, 6))
            continue;
        // The header: a light grey gradient that darkens downwards, within 12 px below.
        int h = fieldEnd + 1;
        while (h < fieldEnd + 12 && !greyNear(px(h), 0xb8, 10))
            ++h;
        int end = h + 1;
        while (end < dock.bottom() && greyNear(px(end), 0xf0, 14))
            ++end;
        if (end - h < 10 || !greyNear(px(end), 0xab, 8))
            continue;
        // The first row: from the header's lower border to the first grid line (#c7c7c7).
        int row = end + 1;
        while (row < dock.bottom() && !greyNear(px(row), 0xc7, 10))
            ++row;
        const int rowHeight = row - end > 8 && row - end < 40 ? row - end : 20;
        // The field's left edge: its border, scanning left along its middle.
        const int mid = (y + fieldEnd) / 2;
        int left = x;
        while (left > dock.left() && !greyNear(screen.pixel(left, mid), 0xab, 12))
            --left;
        found = PodsTable { QPoint((left + x) / 2, mid), QPoint(left + 30, end + rowHeight / 2) };
        y = end;
    }
    return found;
}

/// findPodsTableAt() on columns from the dock's right edge leftwards: a column crossing
/// header text, a section line or the table's scroll bar does not show the pattern.
std::optional<PodsTable> findPodsTable(const QImage& screen, const QRect& dock)
{
    for (int x = dock.right() - 12; x > dock.right() - 300; x -= 7)
        if (auto found = findPodsTableAt(screen, dock, x))
            return found;
    return std::nullopt;
}

} // namespace

class TestE2eWindow : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void init();
    void cleanup();
    void clickSelectsAndInspectsANode();
    void rightClickDrainsANode();
    void liveClusterPausedForPlanning();
    void menuKeyAndPlanMenuDrainTheSelectedNode();
    void podDraggedFromTheInspectorOntoNodes();
    void dragLabelLeavesTheCellUnderThePointerVisible();
    void resizingADockWhileZoomedKeepsTheZoom();
    void undoKeysInTheSearchFieldEditTheField();
    void searchHandsTheKeyboardToTheMap();

private:
    /// Clicks `node` at the fitted zoom and waits for the node inspector (a dock there from the
    /// start) to show its pods; its cell afterwards, and m_mapMovedOnClick whether the map or
    /// the cell moved meanwhile.
    QPoint selectNode(const QString& node);
    /// Retries `gesture` until the saved plan has `count` actions (the what-if engine is
    /// built on a worker after the window shows); the plan's actions.
    QJsonArray planAfter(const std::function<bool()>& gesture, int count, int timeoutMs = 30000);
    QRect dockArea();

    std::unique_ptr<DesktopSession> m_session;
    int m_plans = 0;
    bool m_mapMovedOnClick = false; // the last selectNode() saw the map or the node's cell move
};

void TestE2eWindow::initTestCase()
{
    QVERIFY2(!fleetFacts().nodes.isEmpty() && !fleetFacts().pods.isEmpty(), "fleetscope summary gave no nodes or pods");
}

void TestE2eWindow::init()
{
    m_session = std::make_unique<DesktopSession>();
    QVERIFY2(m_session->startDesktop(1600, 1000), qPrintable(m_session->error()));
    QVERIFY2(m_session->startApp(kSource, kWindow), qPrintable(m_session->error()));
}

void TestE2eWindow::cleanup()
{
    if (m_session && !m_session->appRunning() && m_session->appExitText() != QLatin1String("exited with code 0"))
        qWarning("fleetscope %s; its output:\n%s", qPrintable(m_session->appExitText()), qPrintable(m_session->appOutput()));
    m_session.reset();
}

QRect TestE2eWindow::dockArea()
{
    const QRect win = m_session->windowRect();
    return QRect(QPoint(win.right() - 420, win.top() + 40), QPoint(win.right(), win.bottom() - 30));
}

QPoint TestE2eWindow::selectNode(const QString& node)
{
    DesktopSession& s = *m_session;
    const auto cells = s.mapCells(kSource, { node });
    if (!cells.contains(node)) {
        qWarning("no cell for %s: %s", qPrintable(node), qPrintable(s.error()));
        return {};
    }
    const QRect areaBefore = s.mapArea(s.grabScreen());
    if (!s.click(cells.value(node)))
        return {};
    // The inspector's dock is there from the start: the click fills it with the node's pods.
    if (!waitUntil([&] { return findPodsTable(s.grabScreen(), dockArea()).has_value(); }, fleet::e2e::kAnswerTimeoutMs)) {
        qWarning("the node inspector did not show the node");
        return {};
    }
    const auto after = s.mapCells(kSource, { node });
    if (!after.contains(node))
        qWarning("no cell for %s after the inspector opened: %s", qPrintable(node), qPrintable(s.error()));
    m_mapMovedOnClick = s.mapArea(s.grabScreen()) != areaBefore || after.value(node) != cells.value(node);
    return after.value(node);
}

QJsonArray TestE2eWindow::planAfter(const std::function<bool()>& gesture, int count, int timeoutMs)
{
    QJsonArray actions;
    QElapsedTimer clock;
    clock.start();
    do {
        if (!gesture() || !m_session->appRunning())
            return {};
        // Saved only once there is a plan: a Save Plan dialog slower than a fixed wait took the
        // next gesture's keys (Return saved plan.json into the working folder).
        const QString path = m_session->path(QStringLiteral("plan-%1.json").arg(++m_plans));
        if (!m_session->planIsEmpty() && m_session->savePlanAs(path))
            actions = DesktopSession::planActions(path);
    } while (actions.size() < count && clock.elapsed() < timeoutMs);
    return actions;
}

void TestE2eWindow::clickSelectsAndInspectsANode()
{
    DesktopSession& s = *m_session;
    const QString node = fleetFacts().pods.first().node;
    const QPoint cell = selectNode(node);
    QVERIFY2(!cell.isNull(), qPrintable(s.error()));
    // The click did not move the map: the node is still under the pointer (a dock opened
    // beside the map used to relayout it and move the clicked node away).
    QVERIFY2(!m_mapMovedOnClick, "the map moved when the node inspector showed the clicked node");
    // The selection's cyan outline is drawn around the node's cell, where it now is.
    s.moveTo(QPoint(s.windowRect().left() + 5, s.windowRect().bottom() - 3));
    const QImage screen = s.grabScreen();
    int outline = 0;
    for (int dy = -12; dy <= 12; ++dy)
        for (int dx = -12; dx <= 12; ++dx)
            outline += near(screen.pixelColor(cell + QPoint(dx, dy)), kSelectionOutline, 40) ? 1 : 0;
    QVERIFY2(outline >= 8, qPrintable(QStringLiteral("%1 outline pixels around %2,%3").arg(outline).arg(cell.x()).arg(cell.y())));
    // The inspector lists the node's pods: its table is there.
    QVERIFY2(findPodsTable(screen, dockArea()).has_value(), "no pod table in the node inspector");
    QVERIFY2(s.quitApp(), qPrintable(s.error()));
}

void TestE2eWindow::rightClickDrainsANode()
{
    DesktopSession& s = *m_session;
    const QString node = fleetFacts().nodes.at(10);
    const auto cells = s.mapCells(kSource, { node });
    QVERIFY2(cells.contains(node), qPrintable(s.error()));
    // Right press on the node, its menu's first entry (Drain).
    const QJsonArray actions = planAfter(
        [&] { return s.click(cells.value(node), 3) && s.key(QStringLiteral("Down")) && s.key(QStringLiteral("Return")); }, 1);
    QVERIFY2(s.appRunning(), qPrintable(s.appExitText()));
    QCOMPARE(actionTypes(actions), QStringList { QStringLiteral("drain-node") });
    QCOMPARE(actions.at(0).toObject().value(QStringLiteral("node")).toString(), node);
}

// A live cluster that changes without pause: Ctrl+Shift+L (Plan > Pause Live Updates) holds the
// changes, and the right-click Drain then makes a plan (without it the what-if is never built).
void TestE2eWindow::liveClusterPausedForPlanning()
{
    DesktopSession& s = *m_session;
    QVERIFY(s.killApp());
    // Paused as soon as the window shows: a screen that never stops changing cannot be placed
    // and compared with the headless map.
    const auto pause = [&] {
        return s.xdotool({ QStringLiteral("windowactivate"), QStringLiteral("--sync"), QString::number(s.window()) })
            && s.key(QStringLiteral("ctrl+shift+l"));
    };
    const bool started = s.startApp(
        kSource + QStringList { QStringLiteral("--live"), QStringLiteral("--rate"), QStringLiteral("4000") }, kWindow, 60000, pause, 15000);
    // A live window never stops changing (the Connection dock counts the batches that wait):
    // only startApp()'s last step, the wait for a still screen, may fail.
    QVERIFY2(started || s.error().startsWith(QStringLiteral("the screen kept changing")), qPrintable(s.error()));
    const QString node = fleetFacts().nodes.at(10);
    const auto cells = s.mapCells(kSource, { node });
    QVERIFY2(cells.contains(node), qPrintable(s.error()));
    const QJsonArray actions = planAfter(
        [&] {
            return s.key(QStringLiteral("Escape")) && s.click(cells.value(node), 3) && s.key(QStringLiteral("Down"))
                && s.key(QStringLiteral("Return"));
        },
        1, 60000);
    QVERIFY2(s.appRunning(), qPrintable(s.appExitText()));
    QCOMPARE(actionTypes(actions), QStringList { QStringLiteral("drain-node") });
    QCOMPARE(actions.at(0).toObject().value(QStringLiteral("node")).toString(), node);
}

void TestE2eWindow::menuKeyAndPlanMenuDrainTheSelectedNode()
{
    DesktopSession& s = *m_session;
    const QString first = fleetFacts().nodes.at(20), second = fleetFacts().nodes.at(400);
    const QPoint cell = selectNode(first);
    QVERIFY(!cell.isNull());
    // One Escape closes the Menu key's menu: the screen is as before (Qt's xcb plugin makes a
    // context-menu event and a key press of the one key; the event, placed at the map's centre,
    // and the press, at the pointer, each opened a menu: a trial needed two Escapes). Zoomed to
    // the selected node (Z), a node is at the centre as well as under the pointer.
    QVERIFY(s.key(QStringLiteral("z")));
    QVERIFY2(s.waitForStillScreen(), qPrintable(s.error()));
    const QImage beforeMenu = s.grabScreen();
    QVERIFY(!beforeMenu.isNull());
    QVERIFY(s.key(QStringLiteral("Menu")));
    QVERIFY2(waitUntil([&] { return s.grabScreen() != beforeMenu; }, fleet::e2e::kAnswerTimeoutMs), "the Menu key opened no menu");
    QVERIFY(s.key(QStringLiteral("Escape")));
    QVERIFY2(waitUntil([&] { return s.grabScreen() == beforeMenu; }, fleet::e2e::kAnswerTimeoutMs),
        qPrintable(QStringLiteral("a menu is still open after one Escape; windows: %1").arg(s.visibleWindowTitles().join(QStringLiteral(", ")))));
    QVERIFY(s.key(QStringLiteral("Home"))); // the fitted map again, where mapCells() measures
    QVERIFY2(s.waitForStillScreen(), qPrintable(s.error()));
    // Plan > Drain Selected Node by its shortcut.
    QJsonArray actions = planAfter([&] { return s.key(QStringLiteral("ctrl+d")); }, 1);
    QCOMPARE(actionTypes(actions), QStringList { QStringLiteral("drain-node") });
    QCOMPARE(actions.at(0).toObject().value(QStringLiteral("node")).toString(), first);
    // The Menu key with the pointer over another node: that node's menu, Drain.
    const auto cells = s.mapCells(kSource, { second });
    QVERIFY2(cells.contains(second), qPrintable(s.error()));
    QVERIFY(s.moveTo(cells.value(second)));
    actions = planAfter([&] { return s.key(QStringLiteral("Menu")) && s.key(QStringLiteral("Down")) && s.key(QStringLiteral("Return")); }, 2);
    QCOMPARE(actionTypes(actions), (QStringList { QStringLiteral("drain-node"), QStringLiteral("drain-node") }));
    QCOMPARE(actions.at(1).toObject().value(QStringLiteral("node")).toString(), second);
    // Undo takes the last back, redo puts it again.
    QVERIFY(s.key(QStringLiteral("ctrl+z")));
    actions = planAfter([] { return true; }, 1);
    QCOMPARE(actions.size(), 1);
    QVERIFY(s.key(QStringLiteral("ctrl+shift+z")));
    actions = planAfter([] { return true; }, 2);
    QCOMPARE(actions.size(), 2);
}

void TestE2eWindow::podDraggedFromTheInspectorOntoNodes()
{
    DesktopSession& s = *m_session;
    // A Deployment's pod (inference), a node that can take it and a cordoned one that cannot.
    const Fleet& f = fleetFacts();
    std::optional<PodRef> pod;
    QString to, refused;
    for (const PodRef& p : f.pods) {
        if (p.ns != QLatin1String("inference") && p.ns != QLatin1String("web"))
            continue;
        for (int i = 0; i < f.nodes.size() && to.isEmpty(); i += 97)
            if (f.nodes.at(i) != p.node && !f.cordoned.contains(f.nodes.at(i)) && feasible(p, f.nodes.at(i)))
                to = f.nodes.at(i);
        if (!to.isEmpty()) {
            pod = p;
            break;
        }
    }
    QVERIFY2(pod, "no Deployment pod with a node that can take it");
    for (const QString& n : f.cordoned)
        if (!feasible(*pod, n)) {
            refused = n;
            break;
        }
    QVERIFY2(!refused.isEmpty(), "no cordoned node refuses the pod");

    QVERIFY(!selectNode(pod->node).isNull());
    std::optional<PodsTable> table = findPodsTable(s.grabScreen(), dockArea());
    QVERIFY2(table, "no pod table in the node inspector");
    // The pod alone in the table: its name in the table's filter.
    QVERIFY(s.click(table->filter) && s.type(pod->name));
    const auto cells = s.mapCells(kSource, { to, refused });
    QVERIFY2(cells.contains(to) && cells.contains(refused), qPrintable(s.error()));

    // A drag through the platform's drag and drop onto the map: the program must live, and
    // the plan holds the move. The drop hands the keyboard to the map (it stayed in the table's
    // filter field): the Menu key right after it, before any save (whose file dialog gives the
    // map the keyboard back when it closes), opens the map's menu, whose first item drains a node
    // (the one under the pointer, or the selected one); Ctrl+Z takes that drain back.
    QVERIFY(s.drag(table->firstRow, cells.value(to), 14, 30));
    QVERIFY(s.key(QStringLiteral("Menu")) && s.key(QStringLiteral("Down")) && s.key(QStringLiteral("Return")));
    QJsonArray actions = planAfter([] { return true; }, 2, fleet::e2e::kAnswerTimeoutMs);
    QVERIFY2(s.appRunning(), qPrintable(s.appExitText() + QLatin1Char('\n') + s.appOutput()));
    QCOMPARE(actionTypes(actions), (QStringList { QStringLiteral("move-pod"), QStringLiteral("drain-node") }));
    const QJsonObject move = actions.at(0).toObject();
    QCOMPARE(move.value(QStringLiteral("node")).toString(), to);
    QCOMPARE(move.value(QStringLiteral("pod")).toObject().value(QStringLiteral("name")).toString(), pod->name);
    QVERIFY(s.key(QStringLiteral("ctrl+z")));
    actions = planAfter([] { return true; }, 1);
    QCOMPARE(actionTypes(actions), QStringList { QStringLiteral("move-pod") });

    // Undo: the pod is back in the inspector's table; a drop on the cordoned node is refused
    // and pushes nothing, so Redo still brings the first move back.
    QVERIFY(s.key(QStringLiteral("ctrl+z")));
    QVERIFY(s.drag(table->firstRow, cells.value(refused), 14, 30));
    QVERIFY2(s.appRunning(), qPrintable(s.appExitText() + QLatin1Char('\n') + s.appOutput()));
    QVERIFY2(s.planIsEmpty(), "a plan after the refused drop");
    QVERIFY(s.key(QStringLiteral("ctrl+shift+z")));
    actions = planAfter([] { return true; }, 1);
    QCOMPARE(actionTypes(actions), QStringList { QStringLiteral("move-pod") });
    QCOMPARE(actions.at(0).toObject().value(QStringLiteral("node")).toString(), to);
}

// While a pod is dragged from the inspector over the map, the cell under the pointer and its
// feasibility ring stay visible: the drag's picture (the pod's label) rides beside the pointer.
// Qt's default picture, the whole table row held at the point pressed, covered them. Read from
// the screen mid-drag: no pixel of the row's white or light background within 4 px of the
// pointer, and the label's pixels above and right of it.
void TestE2eWindow::dragLabelLeavesTheCellUnderThePointerVisible()
{
    DesktopSession& s = *m_session;
    const Fleet& f = fleetFacts();
    std::optional<PodRef> pod;
    for (const PodRef& p : f.pods)
        if (p.ns == QLatin1String("inference") || p.ns == QLatin1String("web")) {
            pod = p;
            break;
        }
    QVERIFY2(pod, "no Deployment pod");
    QVERIFY(!selectNode(pod->node).isNull());
    std::optional<PodsTable> table = findPodsTable(s.grabScreen(), dockArea());
    QVERIFY2(table, "no pod table in the node inspector");
    QVERIFY(s.click(table->filter) && s.type(pod->name));
    const QString over = f.nodes.at(f.nodes.size() / 2);
    const auto cells = s.mapCells(kSource, { over });
    QVERIFY2(cells.contains(over), qPrintable(s.error()));
    const QPoint to = cells.value(over);
    // Pressed on the row, moved over the map in a hand's steps, held there (no release yet).
    QStringList args { QStringLiteral("mousemove"), QStringLiteral("--sync"), QString::number(table->firstRow.x()),
        QString::number(table->firstRow.y()), QStringLiteral("mousedown"), QStringLiteral("1") };
    for (int i = 1; i <= 14; ++i) {
        const QPoint p = table->firstRow + (to - table->firstRow) * i / 14;
        args << QStringLiteral("sleep") << QStringLiteral("0.030") << QStringLiteral("mousemove") << QString::number(p.x()) << QString::number(p.y());
    }
    QVERIFY(s.xdotool(args));
    auto whitish = [](QRgb c) { return qRed(c) > 232 && qGreen(c) > 232 && qBlue(c) > 200; };
    // The label shows (light pixels within 60 px above and right of the pointer): the drag is on.
    QImage screen;
    const bool labelShown = waitUntil(
        [&] {
            screen = s.grabScreen();
            int light = 0;
            for (int dy = -60; dy < -10; ++dy)
                for (int dx = 10; dx < 120; ++dx)
                    light += screen.rect().contains(to + QPoint(dx, dy)) && whitish(screen.pixel(to + QPoint(dx, dy))) ? 1 : 0;
            return light > 100;
        },
        fleet::e2e::kAnswerTimeoutMs);
    int covering = 0;
    for (int dy = -4; dy <= 4; ++dy)
        for (int dx = -4; dx <= 4; ++dx)
            covering += whitish(screen.pixel(to + QPoint(dx, dy))) ? 1 : 0;
    // Escape cancels the drag; the release then drops nothing.
    QVERIFY(s.key(QStringLiteral("Escape")) && s.xdotool({ QStringLiteral("mouseup"), QStringLiteral("1") }));
    QVERIFY2(labelShown, "no drag label beside the pointer");
    QVERIFY2(covering == 0, qPrintable(QStringLiteral("%1 of 81 pixels around the pointer show the drag's picture").arg(covering)));
    QVERIFY2(s.appRunning(), qPrintable(s.appExitText()));
}

namespace {

const QRgb kMapBackground = qRgb(110, 114, 122); // views/map/colormap.cpp
const QRgb kLegendBackground = qRgb(24, 26, 32);

/// The cells' width on screen in `r`: the median length of the horizontal runs of one colour
/// that are not the map's background, over rows 7 px apart (a cell is one colour below the
/// detail zoom; a row may cross only gutters and label bands).
int cellWidthPx(const QImage& image, const QRect& r)
{
    std::vector<int> runs;
    for (int y = r.top() + 30; y < r.bottom() - 10; y += 7) {
        int start = r.left();
        for (int x = r.left() + 1; x <= r.right() + 1; ++x)
            if (x > r.right() || (image.pixel(x, y) & 0xffffff) != (image.pixel(start, y) & 0xffffff)) {
                if ((image.pixel(start, y) & 0xffffff) != (kMapBackground & 0xffffff) && x - start >= 2)
                    runs.push_back(x - start);
                start = x;
            }
    }
    if (runs.empty())
        return 0;
    std::nth_element(runs.begin(), runs.begin() + static_cast<std::ptrdiff_t>(runs.size() / 2), runs.end());
    return runs[runs.size() / 2];
}

/// The first x at or right of `from` on row y where the legend's dark background runs 20 px.
int legendLeft(const QImage& image, int from, int y)
{
    for (int x = from; x + 20 < image.width(); ++x) {
        bool run = true;
        for (int i = 0; i < 20 && run; ++i)
            run = (image.pixel(x + i, y) & 0xffffff) == (kLegendBackground & 0xffffff);
        if (run)
            return x;
    }
    return -1;
}

} // namespace

void TestE2eWindow::resizingADockWhileZoomedKeepsTheZoom()
{
    DesktopSession& s = *m_session;
    QVERIFY(!selectNode(fleetFacts().nodes.at(5)).isNull());
    const QImage fitted = s.grabScreen();
    const QRect area = s.mapArea(fitted);
    QVERIFY(area.width() > 200);
    const int fittedCell = cellWidthPx(fitted, area);
    QVERIFY2(fittedCell > 2, qPrintable(QString::number(fittedCell)));
    // Three wheel notches (1.25^3, about twice as close): cells under the detail zoom still.
    QVERIFY(s.wheel(area.center(), 3));
    QImage zoomed;
    QVERIFY(waitUntil(
        [&] {
            zoomed = s.grabScreen();
            return cellWidthPx(zoomed, area) >= fittedCell * 1.6;
        },
        fleet::e2e::kAnswerTimeoutMs));
    // The legend and the separator are read from a whole frame: the pointer off the map (no
    // node tooltip comes up over it) and the screen still. The first zoomed frame was read at
    // once, and on a loaded machine the separator found in it was not where the drag began.
    QVERIFY(s.moveTo(QPoint(s.windowRect().left() + 5, s.windowRect().bottom() - 3)));
    QVERIFY2(s.waitForStillScreen(), qPrintable(s.error()));
    zoomed = s.grabScreen();
    const int zoomedCell = cellWidthPx(zoomed, area);
    QVERIFY2(zoomedCell >= fittedCell * 1.6, qPrintable(QStringLiteral("cell width: fitted %1 px, zoomed %2").arg(fittedCell).arg(zoomedCell)));
    // The splitter between the map's view (its legend at the right) and the node dock, dragged
    // 200 px to the left: the map narrows, a new shape, laid out again.
    const int y = area.bottom() - 4;
    const int legend = legendLeft(zoomed, area.right() + 1, y);
    QVERIFY(legend > 0);
    int splitter = legend;
    while (splitter < zoomed.width() - 1 && (zoomed.pixel(splitter, y) & 0xffffff) == (kLegendBackground & 0xffffff))
        ++splitter;
    const QPoint grip(splitter + 2, area.center().y());
    QVERIFY(s.drag(grip, grip - QPoint(200, 0), 10, 30));
    QImage resized;
    QRect narrower;
    const bool moved = waitUntil(
                 [&] {
                     resized = s.grabScreen();
                     const int left = legendLeft(resized, area.left() + 50, y);
                     narrower = QRect(area.topLeft(), QPoint(left - 1, area.bottom()));
                     return left > 0 && narrower.width() < area.width() - 100;
                 },
                 fleet::e2e::kAnswerTimeoutMs);
    if (!moved) {
        zoomed.save(s.path(QStringLiteral("resize-zoomed.png")));
        resized.save(s.path(QStringLiteral("resize-after.png")));
        s.keepFiles();
    }
    QVERIFY2(moved, qPrintable(QStringLiteral("the dock's splitter did not move from x %1 (images in %2)").arg(grip.x()).arg(s.path(QString()))));
    // Still zoomed: the cells keep their size on screen (before the fix the map fitted the
    // whole fleet again, cells back to their fitted size).
    const int resizedCell = cellWidthPx(resized, narrower);
    QVERIFY2(std::abs(resizedCell - zoomedCell) <= 2,
        qPrintable(QStringLiteral("cell width: fitted %1 px, zoomed %2, after the resize %3").arg(fittedCell).arg(zoomedCell).arg(resizedCell)));
    QVERIFY2(s.quitApp(), qPrintable(s.error()));
}

// Ctrl+Z, Ctrl+Y and Ctrl+Shift+Z while the search field has the keyboard edit the field's
// text, never the plan (Edit > Undo's and Redo's shortcuts are the window's, and Ctrl+Y, which a
// QLineEdit on X11 does not claim, redid a plan step). Read back through what the program does:
// the field's text after the keys is searched with Return and drained with Ctrl+D, and the saved
// plan must hold the first drain and exactly that node's.
void TestE2eWindow::undoKeysInTheSearchFieldEditTheField()
{
    DesktopSession& s = *m_session;
    const QString first = fleetFacts().nodes.at(20), second = fleetFacts().nodes.at(30);
    QVERIFY(!selectNode(first).isNull());
    QJsonArray actions = planAfter([&] { return s.key(QStringLiteral("ctrl+d")); }, 1);
    QCOMPARE(actionTypes(actions), QStringList { QStringLiteral("drain-node") });
    // In the field: the second node's name, two characters rubbed out (Undo brings them back),
    // Ctrl+Y takes them out again (the field's Redo), Ctrl+Z back: the whole name.
    QVERIFY(s.key(QStringLiteral("ctrl+f")) && s.type(second) && s.key(QStringLiteral("BackSpace"))
        && s.key(QStringLiteral("BackSpace")));
    QVERIFY(s.key(QStringLiteral("ctrl+z")) && s.key(QStringLiteral("ctrl+y")) && s.key(QStringLiteral("ctrl+z")));
    QVERIFY(s.key(QStringLiteral("ctrl+shift+z")) && s.key(QStringLiteral("ctrl+z")));
    QVERIFY(s.key(QStringLiteral("Return")) && s.key(QStringLiteral("ctrl+d")));
    actions = planAfter([] { return true; }, 2, fleet::e2e::kAnswerTimeoutMs);
    QCOMPARE(actionTypes(actions), (QStringList { QStringLiteral("drain-node"), QStringLiteral("drain-node") }));
    QCOMPARE(actions.at(0).toObject().value(QStringLiteral("node")).toString(), first);
    QCOMPARE(actions.at(1).toObject().value(QStringLiteral("node")).toString(), second);
    // Outside a field Ctrl+Z is the plan's Undo still: the map (zoomed to the node found, left
    // of the docks) has the keyboard after a click.
    QVERIFY(s.click(s.windowRect().topLeft() + QPoint(300, 400)));
    QVERIFY(s.key(QStringLiteral("ctrl+z")));
    actions = planAfter([] { return true; }, 1);
    QCOMPARE(actions.size(), 1);
    QCOMPARE(actions.at(0).toObject().value(QStringLiteral("node")).toString(), first);
    QVERIFY2(s.quitApp(), qPrintable(s.error()));
}

// A search that finds its node (Ctrl+F, the name, Return) hands the keyboard to the map: the
// Menu key then opens the map's menu on the node found (the pointer is off the map), and its
// first item drains it. While the field kept the keyboard, Menu opened the field's own menu
// and nothing reached the plan.
void TestE2eWindow::searchHandsTheKeyboardToTheMap()
{
    DesktopSession& s = *m_session;
    const QString node = fleetFacts().nodes.at(50);
    QVERIFY(s.moveTo(QPoint(s.windowRect().left() + 5, s.windowRect().bottom() - 3))); // the status bar
    QVERIFY(s.key(QStringLiteral("ctrl+f")) && s.type(node) && s.key(QStringLiteral("Return")));
    QVERIFY2(s.waitForStillScreen(), qPrintable(s.error()));
    const QJsonArray actions
        = planAfter([&] { return s.key(QStringLiteral("Menu")) && s.key(QStringLiteral("Down")) && s.key(QStringLiteral("Return")); }, 1, fleet::e2e::kAnswerTimeoutMs);
    QCOMPARE(actionTypes(actions), QStringList { QStringLiteral("drain-node") });
    QCOMPARE(actions.at(0).toObject().value(QStringLiteral("node")).toString(), node);
    QVERIFY2(s.quitApp(), qPrintable(s.error()));
}

QTEST_GUILESS_MAIN(TestE2eWindow)
#include "tst_e2e_window.moc"
