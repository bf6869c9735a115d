// SPDX-License-Identifier: Apache-2.0
// The nodes that stay after a consolidation (views/itemmodels/keptnodesmodel.h and
// views/panels/keptnodespanel.h) over a real consolidation of a small simulated fleet, under
// QAbstractItemModelTester: the groups are those of `plan consolidate` (model::keptByCode) and
// their counts add up to every kept node; the label filter, the text filter and sorting give
// what a plain scan of the result gives; Copy writes the selected rows; Export writes the
// shown rows as `plan consolidate --format json` writes its kept entries (checked against the
// real command's output), as CSV, and refuses a bad target without touching it. Relations
// only: no figure that depends on the simulated fleet's layout is pinned.

#include "app/fleetscoperun.h"
#include "views/explorefixtures.h"

#include "importers/export/keptnodesexport.h"
#include "model/plan/evictionrules.h"
#include "model/plan/planprices.h"
#include "model/search/consolidation.h"
#include "model/search/keptgroups.h"
#include "views/itemmodels/itemmodelroles.h"
#include "views/itemmodels/keptnodesmodel.h"
#include "views/panels/filterfield.h"
#include "views/panels/keptnodespanel.h"

#include <QMap>
#include <QAbstractItemModelTester>
#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QDialog>
#include <QDialogButtonBox>
#include <QFile>
#include <QItemSelectionModel>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLineEdit>
#include <QPushButton>
#include <QTemporaryDir>
#include <QTreeView>
#include <QVBoxLayout>
#include <QtTest>

#include <algorithm>
#include <numeric>

using namespace fleet;

namespace {

// Every entry index the model shows, read through the model's own API (rows, then children).
std::vector<std::size_t> listedEntries(const views::KeptNodesModel& m)
{
    std::vector<std::size_t> out;
    for (int g = 0; g < m.rowCount(); ++g) {
        const QModelIndex group = m.index(g, 0);
        for (int r = 0; r < m.rowCount(group); ++r)
            out.push_back(static_cast<std::size_t>(m.index(r, 0, group).data(views::KeptNodesModel::kEntryRole).toLongLong()));
    }
    return out;
}

QString nodeName(const model::ClusterStore& store, model::NodeId n)
{
    const std::string_view name = store.nodeName(n);
    return QString::fromUtf8(name.data(), static_cast<qsizetype>(name.size()));
}

QString podOf(const model::ClusterStore& store, const model::KeptNode& k)
{
    return k.pod.isValid() ? QString::fromStdString(model::podKey(store, k.pod)) : QString();
}

} // namespace

class TestKeptNodesModel : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        const importers::LoadedCluster c = testing::loadSimulated(400);
        m_store = c.store;
        model::ConsolidationInput input;
        input.nodePricePerHour = model::planNodePrices(*c.store, nullptr);
        model::ConsolidationOptions options;
        options.bestOfOrders = false;
        m_kept = std::make_shared<const std::vector<model::KeptNode>>(
            model::consolidate(*c.store, *c.topology, input, options).kept);
        QVERIFY2(m_kept->size() > 20, "a consolidation keeps nodes for several reasons");
        QVERIFY2(model::keptByCode(*m_kept).size() >= 2, "more than one reason keeps nodes");
    }

    void groupsByReasonCodeAndCountsAddUp()
    {
        views::KeptNodesModel m;
        QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
        m.setKept(m_store, m_kept);
        const std::vector<model::KeptGroup> groups = model::keptByCode(*m_kept);
        QCOMPARE(m.rowCount(), static_cast<int>(groups.size()));
        std::int64_t sum = 0;
        for (int g = 0; g < m.rowCount(); ++g) {
            const QModelIndex group = m.index(g, 0);
            const model::KeptGroup& expected = groups[static_cast<std::size_t>(g)];
            QCOMPARE(group.data().toString(), QString::fromStdString(expected.code)); // the CLI's order: most nodes first
            QCOMPARE(m.rowCount(group), static_cast<int>(expected.nodes));
            QCOMPARE(m.index(g, views::KeptNodesModel::CountColumn).data(views::kSortRole).toLongLong(), expected.nodes);
            // The description, and for "no node passes every filter" the filter its entries name most.
            const std::string blocking = model::keptGroupBlockingText(expected);
            QCOMPARE(m.index(g, views::KeptNodesModel::DescriptionColumn).data().toString(),
                QString::fromStdString(std::string(model::keptGroupDescription(expected.kind))
                    + (blocking.empty() ? std::string() : "; most common blocking filter: " + blocking)));
            if (expected.code == "no-feasible-node") {
                QVERIFY(!expected.blockingCode.empty());
                QVERIFY(m.index(g, views::KeptNodesModel::DescriptionColumn).data().toString().contains(
                    QString::fromStdString(expected.blockingCode)));
            }
            QVERIFY(!m.index(g, views::KeptNodesModel::DescriptionColumn).data().toString().isEmpty());
            sum += m.rowCount(group);
            // Each node row: its entry's node, pod and message, and the entry belongs to the group.
            for (int r = 0; r < m.rowCount(group); ++r) {
                const auto e
                    = static_cast<std::size_t>(m.index(r, 0, group).data(views::KeptNodesModel::kEntryRole).toLongLong());
                const model::KeptNode& k = (*m_kept)[e];
                QCOMPARE(model::keptGroupCode(k.reason), expected.code);
                QCOMPARE(m.index(r, 0, group).data().toString(), nodeName(*m_store, k.node));
                QCOMPARE(m.index(r, 0, group).data(views::KeptNodesModel::kNodeNameRole).toString(),
                    m.index(r, 0, group).data().toString());
                QCOMPARE(m.index(r, views::KeptNodesModel::CountColumn, group).data().toString(), podOf(*m_store, k));
                QCOMPARE(m.index(r, views::KeptNodesModel::DescriptionColumn, group).data().toString(),
                    QString::fromStdString(k.reason.message));
                if (r > 0) // unsorted: node id order within a group
                    QVERIFY(
                        m.index(r - 1, 0, group).data(views::KeptNodesModel::kEntryRole).toLongLong() < static_cast<qint64>(e));
            }
        }
        QCOMPARE(sum, static_cast<std::int64_t>(m_kept->size()));
        QCOMPARE(m.shownEntryCount(), m_kept->size());
        // Every kept node once.
        std::vector<std::size_t> listed = listedEntries(m);
        QCOMPARE(listed, m.shownEntries());
        std::sort(listed.begin(), listed.end());
        std::vector<std::size_t> all(m_kept->size());
        std::iota(all.begin(), all.end(), std::size_t(0));
        QCOMPARE(listed, all);
    }

    void filtersByTextAndNodeMask()
    {
        views::KeptNodesModel m;
        QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
        m.setKept(m_store, m_kept);
        // Text: a plain scan of node, pod, code, group and message, ignoring case.
        const model::KeptNode& some = (*m_kept)[m_kept->size() / 2];
        const QString needles[] = { nodeName(*m_store, some.node).toUpper(),
            QString::fromStdString(model::keptGroupCode(some.reason)), QStringLiteral("zz-no-such-text") };
        for (const QString& needle : needles) {
            m.setTextFilter(needle);
            std::vector<std::size_t> expected;
            for (std::size_t i = 0; i < m_kept->size(); ++i) {
                const model::KeptNode& k = (*m_kept)[i];
                const QStringList fields { nodeName(*m_store, k.node), podOf(*m_store, k),
                    QString::fromStdString(k.reason.code()), QString::fromStdString(model::keptGroupCode(k.reason)),
                    QString::fromStdString(k.reason.message) };
                if (std::any_of(
                        fields.begin(), fields.end(), [&](const QString& f) { return f.contains(needle, Qt::CaseInsensitive); }))
                    expected.push_back(i);
            }
            std::vector<std::size_t> listed = listedEntries(m);
            std::sort(listed.begin(), listed.end());
            QCOMPARE(listed, expected);
            QCOMPARE(m.shownEntryCount(), expected.size());
            for (int g = 0; g < m.rowCount(); ++g)
                QVERIFY(m.rowCount(m.index(g, 0)) > 0); // a group without a shown node is hidden
        }
        QCOMPARE(m.rowCount(), 0); // the last needle matches nothing
        m.setTextFilter(QStringLiteral("  "));
        QCOMPARE(m.shownEntryCount(), m_kept->size());
        // Node mask: the nodes of even id only; a group's count says "N of M" when cut.
        auto mask = std::make_shared<std::vector<std::uint8_t>>(m_store->nodeCount(), 0);
        for (std::size_t n = 0; n < mask->size(); n += 2)
            (*mask)[n] = 1;
        m.setNodeMask(mask);
        std::vector<std::size_t> expected;
        for (std::size_t i = 0; i < m_kept->size(); ++i)
            if ((*m_kept)[i].node.index() % 2 == 0)
                expected.push_back(i);
        std::vector<std::size_t> listed = listedEntries(m);
        std::sort(listed.begin(), listed.end());
        QCOMPARE(listed, expected);
        QVERIFY(!expected.empty() && expected.size() < m_kept->size());
        bool cut = false;
        for (int g = 0; g < m.rowCount(); ++g)
            cut = cut || m.index(g, views::KeptNodesModel::CountColumn).data().toString().contains(QStringLiteral(" of "));
        QVERIFY(cut);
        m.setNodeMask(nullptr);
        QCOMPARE(m.shownEntryCount(), m_kept->size());
    }

    void sortsByEachColumnAndKeepsSelection()
    {
        views::KeptNodesModel m;
        QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
        m.setKept(m_store, m_kept);
        const QModelIndex firstGroup = m.index(0, 0);
        QPersistentModelIndex held(m.index(m.rowCount(firstGroup) - 1, 0, firstGroup));
        const qint64 heldEntry = held.data(views::KeptNodesModel::kEntryRole).toLongLong();
        for (const Qt::SortOrder order : { Qt::AscendingOrder, Qt::DescendingOrder }) {
            for (int column = 0; column < views::KeptNodesModel::ColumnCount; ++column) {
                m.sort(column, order);
                QVERIFY(held.isValid());
                QCOMPARE(held.data(views::KeptNodesModel::kEntryRole).toLongLong(), heldEntry);
                QCOMPARE(static_cast<std::size_t>(m.rowCount()), model::keptByCode(*m_kept).size());
                auto inOrder = [order](const QVariant& a, const QVariant& b) {
                    const int c = QVariant::compare(a, b) == QPartialOrdering::Less
                        ? -1
                        : (QVariant::compare(a, b) == QPartialOrdering::Equivalent ? 0 : 1);
                    return order == Qt::AscendingOrder ? c <= 0 : c >= 0;
                };
                for (int g = 1; g < m.rowCount(); ++g)
                    QVERIFY2(inOrder(m.index(g - 1, column).data(views::kSortRole), m.index(g, column).data(views::kSortRole)),
                        qPrintable(QStringLiteral("groups by column %1").arg(column)));
                for (int g = 0; g < m.rowCount(); ++g) {
                    const QModelIndex group = m.index(g, 0);
                    for (int r = 1; r < m.rowCount(group); ++r) {
                        const QByteArray a = m.index(r - 1, column, group).data().toString().toUtf8();
                        const QByteArray b = m.index(r, column, group).data().toString().toUtf8();
                        QVERIFY2(order == Qt::AscendingOrder ? a <= b : a >= b,
                            qPrintable(QStringLiteral("nodes by column %1").arg(column)));
                    }
                }
                std::vector<std::size_t> listed = listedEntries(m);
                QCOMPARE(listed, m.shownEntries());
                std::sort(listed.begin(), listed.end());
                QCOMPARE(listed.size(), m_kept->size());
                QVERIFY(std::adjacent_find(listed.begin(), listed.end()) == listed.end());
            }
        }
        // The groups by count, descending, are the CLI's order again.
        m.sort(views::KeptNodesModel::CountColumn, Qt::DescendingOrder);
        const std::vector<model::KeptGroup> groups = model::keptByCode(*m_kept);
        for (int g = 0; g < m.rowCount(); ++g)
            QCOMPARE(m.index(g, 0).data().toString(), QString::fromStdString(groups[static_cast<std::size_t>(g)].code));
    }

    void copiesTheSelectedRows()
    {
        views::KeptNodesPanel panel;
        QSignalSpy keptShown(&panel, &views::KeptNodesPanel::keptShown);
        panel.setKept(m_store, m_kept);
        QVERIFY(keptShown.wait(30000));
        views::KeptNodesModel* m = panel.model();
        QTreeView* view = panel.view();
        // A group row: its line, then one line per node of the group.
        const QModelIndex group = m->index(m->rowCount() - 1, 0);
        view->selectionModel()->select(group, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
        panel.copyAction()->trigger();
        QStringList lines = QApplication::clipboard()->text().split(u'\n', Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 1 + m->rowCount(group));
        QVERIFY(lines[0].startsWith(group.data().toString() + u'\t'));
        // Two node rows of another group, selected out of order: written in the model's order,
        // as node, pod, message, code.
        const QModelIndex first = m->index(0, 0);
        QVERIFY(m->rowCount(first) >= 2);
        view->selectionModel()->select(m->index(1, 0, first), QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
        view->selectionModel()->select(m->index(0, 0, first), QItemSelectionModel::Select | QItemSelectionModel::Rows);
        panel.copyAction()->trigger();
        lines = QApplication::clipboard()->text().split(u'\n', Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 2);
        for (int r = 0; r < 2; ++r) {
            const QStringList fields = lines[r].split(u'\t');
            QCOMPARE(fields.size(), 4);
            QCOMPARE(fields[0], m->index(r, 0, first).data().toString());
            QCOMPARE(fields[1], m->index(r, 1, first).data().toString());
            QCOMPARE(fields[2], m->index(r, 2, first).data().toString());
            const auto e = static_cast<std::size_t>(m->index(r, 0, first).data(views::KeptNodesModel::kEntryRole).toLongLong());
            QCOMPARE(fields[3], QString::fromStdString((*m_kept)[e].reason.code()));
        }
        // A click on a node row names its node.
        QSignalSpy activated(&panel, &views::KeptNodesPanel::nodeActivated);
        emit view->clicked(m->index(0, 2, first));
        QCOMPARE(activated.count(), 1);
        QCOMPARE(activated.at(0).at(0).toString(), m->index(0, 0, first).data().toString());
        emit view->clicked(first); // a group row names none
        QCOMPARE(activated.count(), 1);
    }

    void returnInAFilterFiltersAndKeepsTheDialog()
    {
        // In a dialog whose Close button is its default, Return in either field filters; the
        // dialog stays open.
        QDialog dialog;
        auto* panel = new views::KeptNodesPanel(&dialog);
        auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, &dialog);
        connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::hide);
        auto* layout = new QVBoxLayout(&dialog);
        layout->addWidget(panel);
        layout->addWidget(buttons);
        QSignalSpy keptShown(panel, &views::KeptNodesPanel::keptShown);
        panel->setKept(m_store, m_kept);
        QVERIFY(keptShown.wait(30000));
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        QVERIFY(buttons->button(QDialogButtonBox::Close)->isDefault());
        const QString node = nodeName(*m_store, (*m_kept)[0].node);
        panel->textFilter()->setFocus();
        QTest::keyClicks(panel->textFilter(), node);
        QTest::keyClick(panel->textFilter(), Qt::Key_Return);
        QVERIFY(dialog.isVisible());
        QCOMPARE(panel->model()->textFilter(), node); // at once, not after the pause
        QVERIFY(panel->model()->shownEntryCount() >= 1);
        panel->labelFilter()->lineEdit()->setFocus();
        QTest::keyClicks(panel->labelFilter()->lineEdit(), QStringLiteral("kubernetes.io/hostname=") + node);
        QTest::keyClick(panel->labelFilter()->lineEdit(), Qt::Key_Return);
        QVERIFY(dialog.isVisible());
        QCOMPARE(panel->model()->shownEntryCount(), std::size_t(1));
    }

    void labelFilterSelectsNodes()
    {
        views::KeptNodesPanel panel;
        QSignalSpy keptShown(&panel, &views::KeptNodesPanel::keptShown);
        panel.setKept(m_store, m_kept);
        QVERIFY(keptShown.wait(30000));
        const model::KeptNode& some = (*m_kept)[m_kept->size() / 3];
        const QString node = nodeName(*m_store, some.node);
        panel.labelFilter()->lineEdit()->setText(QStringLiteral("kubernetes.io/hostname=") + node);
        panel.labelFilter()->apply();
        QCOMPARE(panel.model()->shownEntryCount(), std::size_t(1));
        QCOMPARE(panel.model()->rowCount(), 1);
        const QModelIndex group = panel.model()->index(0, 0);
        QCOMPARE(group.data().toString(), QString::fromStdString(model::keptGroupCode(some.reason)));
        QCOMPARE(panel.model()->index(0, 0, group).data().toString(), node);
        QVERIFY(panel.view()->isExpanded(group)); // a handful of rows: opened
        QVERIFY2(panel.summaryText().contains(QStringLiteral("1 of ")), qPrintable(panel.summaryText()));
        panel.labelFilter()->lineEdit()->clear();
        QCOMPARE(panel.model()->shownEntryCount(), m_kept->size());
    }

    void exportsAsTheCommandLineDoes()
    {
        // The real command's kept entries, read back into KeptNode values over the same fleet:
        // the panel's JSON export of them is the command's "kept" and "keptByCode", field for field.
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString plan = dir.filePath(QStringLiteral("plan.json"));
        const tests::FleetscopeRun run = tests::runFleetscope({ QStringLiteral("plan"), QStringLiteral("consolidate"),
            QStringLiteral("--simulate"), QStringLiteral("300"), QStringLiteral("--seed"), QStringLiteral("1"),
            QStringLiteral("--format"), QStringLiteral("json"), QStringLiteral("-o"), plan });
        QVERIFY2(run.exitCode == 0, run.err.constData());
        const QJsonObject cli = QJsonDocument::fromJson(run.out).object();
        const QJsonArray cliKept = cli.value(QStringLiteral("kept")).toArray();
        QVERIFY(!cliKept.isEmpty());
        const importers::LoadedCluster c = testing::loadSimulated(300);
        auto kept = std::make_shared<std::vector<model::KeptNode>>();
        for (const QJsonValue& v : cliKept) {
            const QJsonObject o = v.toObject();
            model::KeptNode k;
            k.node = c.store->findNode(o.value(QStringLiteral("node")).toString().toStdString());
            QVERIFY(k.node.isValid());
            const QStringList pod = o.value(QStringLiteral("pod")).toString().split(u'/');
            if (pod.size() == 2) {
                k.pod = c.store->findPod(pod[0].toStdString(), pod[1].toStdString());
                QVERIFY(k.pod.isValid());
            }
            const std::string code = o.value(QStringLiteral("code")).toString().toStdString();
            k.reason.kind = model::reasonKindOfCode(code);
            QVERIFY(k.reason.kind != model::ReasonKind::Count);
            const model::ReasonKindInfo& info = model::reasonKindInfo(k.reason.kind);
            k.reason.detail = info.hasDetail ? code.substr(info.stem.size()) : std::string();
            k.reason.message = o.value(QStringLiteral("message")).toString().toStdString();
            if (const QJsonObject b = o.value(QStringLiteral("blockingFilter")).toObject(); !b.isEmpty()) {
                k.blocking.code = b.value(QStringLiteral("code")).toString().toStdString();
                k.blocking.nodes = b.value(QStringLiteral("nodes")).toInteger();
                k.blocking.of = b.value(QStringLiteral("of")).toInteger();
                k.blocking.judged = b.value(QStringLiteral("judged")).toInteger();
                const QJsonObject next = b.value(QStringLiteral("next")).toObject();
                k.blocking.nextCode = next.value(QStringLiteral("code")).toString().toStdString();
                k.blocking.nextNodes = next.value(QStringLiteral("nodes")).toInteger();
                QVERIFY(k.reason.message.find("the most common blocking filter: " + k.blocking.code) != std::string::npos);
            }
            kept->push_back(std::move(k));
        }
        views::KeptNodesPanel panel;
        QSignalSpy keptShown(&panel, &views::KeptNodesPanel::keptShown);
        panel.setKept(c.store, kept);
        QVERIFY(keptShown.wait(30000));
        QSignalSpy finished(&panel, &views::KeptNodesPanel::exportFinished);
        const QString json = dir.filePath(QStringLiteral("kept.JSON"));
        QCOMPARE(panel.exportTo(json).result(), QString());
        QFile f(json);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QJsonObject exported = QJsonDocument::fromJson(f.readAll()).object();
        // The same entries (the export lists them group by group), the same groups.
        auto byNode = [](QJsonArray a) {
            QList<QJsonValue> l(a.begin(), a.end());
            std::sort(l.begin(), l.end(), [](const QJsonValue& x, const QJsonValue& y) {
                return x.toObject().value(QStringLiteral("node")).toString()
                    < y.toObject().value(QStringLiteral("node")).toString();
            });
            return l;
        };
        QCOMPARE(byNode(exported.value(QStringLiteral("kept")).toArray()), byNode(cliKept));
        QCOMPARE(exported.value(QStringLiteral("keptByCode")), cli.value(QStringLiteral("keptByCode")));

        // CSV of the shown rows only: a text filter, then a header and one line per shown node.
        panel.textFilter()->setText(QString::fromStdString(model::keptGroupCode((*kept)[0].reason)));
        QTest::keyClick(panel.textFilter(), Qt::Key_Return);
        const std::size_t shown = panel.model()->shownEntryCount();
        QVERIFY(shown > 0 && shown <= kept->size());
        const QString csv = dir.filePath(QStringLiteral("kept.csv"));
        QCOMPARE(panel.exportTo(csv).result(), QString());
        QFile g(csv);
        QVERIFY(g.open(QIODevice::ReadOnly));
        const QByteArray csvText = g.readAll();
        QCOMPARE(static_cast<std::size_t>(csvText.count('\n')), shown + 1);
        QVERIFY(csvText.startsWith("node,pod,group,code,message,blocking_filter,blocking_nodes,other_nodes,nodes_judged\n"));
        QCOMPARE(
            QString::fromStdString(importers::keptNodesCsv(*c.store, *kept, panel.model()->shownEntries())).toUtf8(), csvText);

        // A target that cannot be written: an error naming it, and the file there stays as it was.
        const QString folder = dir.filePath(QStringLiteral("a-folder.csv"));
        QVERIFY(QDir(dir.path()).mkdir(QStringLiteral("a-folder.csv")));
        const QString refused = panel.exportTo(folder).result();
        QVERIFY2(refused.contains(QStringLiteral("a-folder.csv")), qPrintable(refused));
        QVERIFY(QFileInfo(folder).isDir());
        const QString missing = dir.filePath(QStringLiteral("no-such-folder/kept.csv"));
        QVERIFY(!panel.exportTo(missing).result().isEmpty());
        QVERIFY(!QFileInfo::exists(missing));
        // Each export also says so by signal: its path, then the error or nothing. The exports
        // run on workers of their own, so their signals may come in any order.
        QTRY_COMPARE(finished.count(), 4);
        QMap<QString, QString> errors;
        for (int i = 0; i < 4; ++i)
            errors.insert(finished.at(i).at(0).toString(), finished.at(i).at(1).toString());
        QStringList paths { json, csv, folder, missing };
        paths.sort(); // as QMap orders its keys
        QCOMPARE(errors.keys(), paths);
        QVERIFY(errors.value(json).isEmpty() && errors.value(csv).isEmpty());
        QVERIFY(!errors.value(folder).isEmpty() && !errors.value(missing).isEmpty());
    }

private:
    std::shared_ptr<const model::ClusterStore> m_store;
    std::shared_ptr<const std::vector<model::KeptNode>> m_kept;
};

QTEST_MAIN(TestKeptNodesModel)
#include "tst_keptnodesmodel.moc"
