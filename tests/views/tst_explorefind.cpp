// SPDX-License-Identifier: Apache-2.0
// Tests of finding and filtering: SearchIndex (completion and lookup of nodes and pods,
// against a brute-force scan), the SearchField, and the node filter (workload / namespace
// masks, error display with the offending position).

#include "explorefixtures.h"
#include "views/panels/filterfield.h"
#include "views/panels/nodefilter.h"
#include "views/panels/searchfield.h"
#include "model/searchindex.h"

#include <QLineEdit>
#include <QAbstractItemView>
#include <QCompleter>
#include <QSignalSpy>
#include <QTest>
#include <QThreadPool>

#include <algorithm>

using namespace fleet;

class TestExploreFind : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        m_eks = testing::loadEksFixture().store;
        m_sim = testing::loadSimulated(500).store;
        m_eksIndex = model::SearchIndex::build(m_eks);
        m_simIndex = model::SearchIndex::build(m_sim);
    }

    void find_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("node");
        QTest::addColumn<QString>("pod"); // "" for a node
        QTest::newRow("node") << "duckboat-02"
                              << "duckboat-02"
                              << "";
        QTest::newRow("pod by namespace/name") << "kube-system/calico-node-h2bjp"
                                               << "duckboat-01"
                                               << "kube-system/calico-node-h2bjp";
        QTest::newRow("pod by name") << "speaker-cpxhz"
                                     << "duckboat-01"
                                     << "metallb-system/speaker-cpxhz";
        QTest::newRow("prefix of a node") << "duckb"
                                          << "duckboat-01"
                                          << "";
        QTest::newRow("prefix of a namespace") << "metallb-system/"
                                               << "duckboat-01"
                                               << "metallb-system/controller-5c9894b5cd-r66xh";
        QTest::newRow("nothing") << "no-such-thing"
                                 << ""
                                 << "";
    }
    void find()
    {
        QFETCH(QString, text);
        QFETCH(QString, node);
        QFETCH(QString, pod);
        const auto m = m_eksIndex->find(text.toStdString());
        QCOMPARE(m.node.isValid() ? QString::fromUtf8(m_eks->nodeName(m.node)) : QString(), node);
        QCOMPARE(m.pod.isValid() ? QString::fromStdString(m.text) : QString(), pod);
    }

    void complete_eks()
    {
        const auto matches = m_eksIndex->complete("kube-system/", 50);
        QCOMPARE(matches.size(), std::size_t(2));
        QCOMPARE(QString::fromStdString(matches[0].text), QStringLiteral("kube-system/calico-node-h2bjp"));
        QCOMPARE(QString::fromStdString(matches[1].text), QStringLiteral("kube-system/kube-proxy-cxkwh"));
        const auto nodes = m_eksIndex->complete("duck", 50);
        QCOMPARE(nodes.size(), std::size_t(2));
        QCOMPARE(nodes[0].pod.isValid(), false);
        QCOMPARE(m_eksIndex->complete("duck", 1).size(), std::size_t(1));
        QVERIFY(m_eksIndex->complete("", 50).empty());
    }

    // The pods' completions are exactly the first keys of a brute-force sorted list.
    void complete_matchesBruteForce_data()
    {
        QTest::addColumn<QString>("prefix");
        QTest::newRow("k") << "k";
        QTest::newRow("kube-system/") << "kube-system/";
        QTest::newRow("kube-system/kube-proxy-") << "kube-system/kube-proxy-";
        QTest::newRow("m") << "m";
        QTest::newRow("ip-10") << "ip-10";
        QTest::newRow("i") << "i";
    }
    void complete_matchesBruteForce()
    {
        QFETCH(QString, prefix);
        const std::string pre = prefix.toStdString();
        std::vector<std::string> nodes, pods;
        for (std::size_t i = 0; i < m_sim->nodeCount(); ++i) {
            const std::string name(m_sim->nodeName(model::NodeId(static_cast<std::uint32_t>(i))));
            if (name.starts_with(pre))
                nodes.push_back(name);
        }
        for (std::size_t i = 0; i < m_sim->podCount(); ++i) {
            const model::PodId p(static_cast<std::uint32_t>(i));
            std::string key = std::string(m_sim->podNamespace(p)) + '/' + std::string(m_sim->podName(p));
            if (key.starts_with(pre))
                pods.push_back(key);
        }
        std::sort(nodes.begin(), nodes.end());
        std::sort(pods.begin(), pods.end());
        const std::size_t limit = 40;
        const auto matches = m_simIndex->complete(pre, limit);
        std::vector<std::string> expected(
            nodes.begin(), nodes.begin() + static_cast<std::ptrdiff_t>(std::min(limit, nodes.size())));
        for (std::size_t i = 0; i < pods.size() && expected.size() < limit; ++i)
            expected.push_back(pods[i]);
        QVERIFY(matches.size() >= std::min(limit, expected.size()));
        for (std::size_t i = 0; i < expected.size(); ++i)
            QCOMPARE(QString::fromStdString(matches[i].text), QString::fromStdString(expected[i]));
    }

    void find_everyPodFindsItsNode()
    {
        for (std::size_t i = 0; i < m_sim->podCount(); i += 97) {
            const model::PodId p(static_cast<std::uint32_t>(i));
            const std::string key = std::string(m_sim->podNamespace(p)) + '/' + std::string(m_sim->podName(p));
            const auto m = m_simIndex->find(key);
            QCOMPARE(m.pod, p);
            QCOMPARE(m.node, m_sim->podNode(p));
        }
    }

    void searchField()
    {
        views::SearchField field;
        QVERIFY(!field.lineEdit()->isEnabled());
        field.setIndex(m_eksIndex);
        QSignalSpy spy(&field, &views::SearchField::nodeFound);
        QTest::keyClicks(field.lineEdit(), QStringLiteral("kube-system/ca"));
        QCOMPARE(field.completions(), QStringList { QStringLiteral("kube-system/calico-node-h2bjp") });
        // The popup is as wide as its longest completion, not as narrow as a narrow field.
        field.lineEdit()->setFixedWidth(60);
        field.lineEdit()->clear();
        QTest::keyClicks(field.lineEdit(), QStringLiteral("kube-system/ca"));
        QVERIFY(!field.completions().isEmpty());
        int widest = 0;
        for (const QString& c : field.completions())
            widest = std::max(widest, field.completer()->popup()->fontMetrics().horizontalAdvance(c));
        QVERIFY2(field.completer()->popup()->width() > widest,
            qPrintable(QStringLiteral("popup %1 px for a %2 px completion").arg(field.completer()->popup()->width()).arg(widest)));
        QCOMPARE(field.search(QStringLiteral("kube-system/calico-node-h2bjp")), m_eks->findNode("duckboat-01"));
        QCOMPARE(spy.count(), 1);
        QVERIFY(field.resultText().contains(QStringLiteral("duckboat-01")));
        QCOMPARE(field.search(QStringLiteral("zzz")).isValid(), false);
        QCOMPARE(spy.count(), 1);
        QVERIFY(field.resultText().contains(QStringLiteral("zzz")));
    }

    void searchField_enterSearchesWhatTheFieldShows()
    {
        // The popup open on many completions with its current row on another one than the text
        // names (QCompleter makes the first completion current; the arrows or the pointer move
        // it): Enter finds what the text names, once, and the field keeps its text.
        views::SearchField field;
        field.setIndex(m_simIndex);
        field.show();
        QVERIFY(QTest::qWaitForWindowExposed(&field));
        field.lineEdit()->setFocus();
        const QString prefix = QStringLiteral("ip-10-1");
        QTest::keyClicks(field.lineEdit(), prefix);
        QAbstractItemView* popup = field.completer()->popup();
        QTRY_VERIFY(popup->isVisible());
        // A full list: no scan for names containing the text runs, which would refill it.
        QCOMPARE(field.completions().size(), views::SearchField::kMaxCompletions);
        popup->selectionModel()->setCurrentIndex(popup->model()->index(2, 0), QItemSelectionModel::NoUpdate);
        const QString other = popup->model()->index(2, 0).data().toString();
        const model::NodeId expected = m_simIndex->find(prefix.toStdString()).node;
        QVERIFY(expected.isValid());
        QVERIFY(m_sim->findNode(other.toStdString()) != expected);
        QSignalSpy found(&field, &views::SearchField::nodeFound);
        QTest::keyClick(popup, Qt::Key_Return);
        QCOMPARE(found.count(), 1);
        QCOMPARE(found.at(0).at(0).value<model::NodeId>(), expected);
        QCOMPARE(field.lineEdit()->text(), prefix);
        QVERIFY(!popup->isVisible());

        // An exact full name typed whole, Enter while its popup is open: that node.
        const std::string name(m_sim->nodeName(model::NodeId(17)));
        field.lineEdit()->clear();
        QTest::keyClicks(field.lineEdit(), QString::fromStdString(name));
        if (popup->isVisible())
            QTest::keyClick(popup, Qt::Key_Return);
        else
            QTest::keyClick(field.lineEdit(), Qt::Key_Return);
        QCOMPARE(found.count(), 2);
        QCOMPARE(found.at(1).at(0).value<model::NodeId>(), model::NodeId(17));
    }

    void searchField_staleScanNeverSelects()
    {
        // A part of a node's name that no name starts with and only that node holds: found by
        // a scan on a worker. Until the scan answers, the selection stays; an answer for a
        // text the field no longer shows, or after cancelPending() (the user selected something
        // else), selects nothing.
        const model::NodeId target(123);
        const std::string name(m_sim->nodeName(target));
        QString part;
        for (std::size_t from = 1; from + 3 < name.size() && part.isEmpty(); ++from) {
            const std::string candidate = name.substr(from);
            if (m_simIndex->complete(candidate, 1).empty() && m_simIndex->containing(candidate, 2).size() == 1)
                part = QString::fromStdString(candidate);
        }
        QVERIFY(!part.isEmpty());
        views::SearchField field;
        field.setIndex(m_simIndex);
        QSignalSpy found(&field, &views::SearchField::nodeFound);
        QSignalSpy cleared(&field, &views::SearchField::selectionCleared);
        auto settle = [] {
            QThreadPool::globalInstance()->waitForDone(); // the scan has posted its answer or stopped
            QCoreApplication::sendPostedEvents();
        };
        field.lineEdit()->setText(part);
        QVERIFY(!field.search(part).isValid());
        QCOMPARE(cleared.count(), 0);
        field.lineEdit()->setText(QStringLiteral("something else"));
        settle();
        QCOMPARE(found.count(), 0);

        field.lineEdit()->setText(part);
        QVERIFY(!field.search(part).isValid());
        field.cancelPending();
        settle();
        QCOMPARE(found.count(), 0);

        QSignalSpy finished(&field, &views::SearchField::searchFinished);
        QVERIFY(!field.search(part).isValid());
        QVERIFY(finished.wait(10000));
        QCOMPARE(found.count(), 1);
        QCOMPARE(found.at(0).at(0).value<model::NodeId>(), target);

        // Nothing found: the selection is kept, and the result line says there is no match.
        QVERIFY(!field.search(QStringLiteral("no-such-node-or-pod-name")).isValid());
        QVERIFY(finished.wait(10000));
        QCOMPARE(cleared.count(), 0);
        QCOMPARE(found.count(), 1);
        QVERIFY2(field.resultText().startsWith(QStringLiteral("No match")), qPrintable(field.resultText()));
    }

    void nodeFilter_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<int>("matching"); // -1: no mask
        QTest::addColumn<int>("errorPosition"); // -1: valid
        QTest::newRow("empty") << "  " << -1 << -1;
        QTest::newRow("namespace") << "namespace:metallb-system" << 1 << -1;
        QTest::newRow("workload") << "workload:metallb-system/speaker" << 1 << -1;
        QTest::newRow("workload without name") << "workload:metallb-system" << -1 << 23;
        QTest::newRow("unknown workload") << "workload:default/nope" << -1 << 9;
        QTest::newRow("unknown namespace") << " namespace:nope" << -1 << 11;
        QTest::newRow("empty namespace") << "namespace:" << -1 << 10;
    }
    void nodeFilter()
    {
        QFETCH(QString, text);
        QFETCH(int, matching);
        QFETCH(int, errorPosition);
        const views::NodeFilterResult r = views::evaluateNodeFilter(*m_eks, text);
        QCOMPARE(r.errorPosition, errorPosition);
        QCOMPARE(r.error.isEmpty(), errorPosition < 0);
        QCOMPARE(r.mask ? static_cast<int>(r.matching) : -1, matching);
        if (r.mask) {
            QCOMPARE(r.mask->size(), m_eks->nodeCount());
            QCOMPARE((*r.mask)[m_eks->findNode("duckboat-01").index()], std::uint8_t(1));
            QCOMPARE((*r.mask)[m_eks->findNode("duckboat-02").index()], std::uint8_t(0));
        }
    }

    void filterErrorText()
    {
        const QString html = views::formatFilterError(QStringLiteral("zone in (a<b"), 10, QStringLiteral("expected ')'"));
        QVERIFY2(html.contains(QStringLiteral("zone in (a<span")), qPrintable(html));
        QVERIFY(html.contains(QStringLiteral(">&lt;</span>b"))); // the offending character, escaped, highlighted
        QVERIFY(html.contains(QStringLiteral("\n          ^</pre>"))); // the caret under it
        QVERIFY(html.contains(QStringLiteral("expected &#x27;)&#x27;")) || html.contains(QStringLiteral("expected ')'")));
        QVERIFY(html.contains(QStringLiteral("at character 11")));
        // Past the end: a highlighted blank.
        QVERIFY(views::formatFilterError(QStringLiteral("a in ("), 6, QStringLiteral("x"))
                    .contains(QStringLiteral(">&nbsp;</span>")));
    }

    void filterField()
    {
        views::FilterField field;
        field.setStore(m_eks);
        QSignalSpy spy(&field, &views::FilterField::maskChanged);
        field.lineEdit()->setText(QStringLiteral("key in (a"));
        field.showError(QStringLiteral("expected ')'"), 9); // injected: the parser's own error
        QVERIFY(field.errorText().contains(QStringLiteral("expected")));
        QVERIFY(field.lineEdit()->styleSheet().contains(QStringLiteral("#c62828")));
        field.lineEdit()->setText(QStringLiteral("namespace:metallb-system"));
        const auto r = field.apply();
        QVERIFY(r.error.isEmpty());
        QCOMPARE(spy.count(), 1);
        QVERIFY(field.errorText().isEmpty());
        QCOMPARE(field.countText(), QStringLiteral("1 of 2 nodes"));
        field.lineEdit()->setText(QStringLiteral("workload:x"));
        field.lineEdit()->setCursorPosition(0);
        QTest::keyClick(field.lineEdit(), Qt::Key_Return);
        QCOMPARE(field.lineEdit()->cursorPosition(), 10); // at the end of "x", where NAME is missing
        QVERIFY(!field.errorText().isEmpty());
        QCOMPARE(spy.count(), 1); // a wrong text keeps the last mask
        field.lineEdit()->clear();
        QCOMPARE(spy.count(), 2);
        QVERIFY(!spy.last().at(0).value<std::shared_ptr<const std::vector<std::uint8_t>>>());
    }

private:
    std::shared_ptr<model::ClusterStore> m_eks;
    std::shared_ptr<model::ClusterStore> m_sim;
    std::shared_ptr<const model::SearchIndex> m_eksIndex;
    std::shared_ptr<const model::SearchIndex> m_simIndex;
};

QTEST_MAIN(TestExploreFind)
#include "tst_explorefind.moc"
