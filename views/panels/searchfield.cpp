// SPDX-License-Identifier: Apache-2.0
#include "searchfield.h"

#include <QAbstractItemView>
#include <QCompleter>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QPointer>
#include <QScrollBar>
#include <QStringListModel>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>

namespace fleet::views {

SearchField::SearchField(QWidget* parent)
    : QWidget(parent)
    , m_completions(new QStringListModel(this))
{
    auto* row = new QHBoxLayout(this);
    row->setContentsMargins(0, 0, 0, 0);
    m_edit = new QLineEdit(this);
    m_edit->setObjectName(QStringLiteral("searchField"));
    m_edit->setClearButtonEnabled(true);
    m_edit->setMinimumWidth(260);
    m_completer = new QCompleter(m_completions, this);
    // The model already holds exactly the completions of the typed prefix.
    m_completer->setCompletionMode(QCompleter::UnfilteredPopupCompletion);
    m_completer->setMaxVisibleItems(12);
    m_edit->setCompleter(m_completer);
    m_result = new QLabel(this);
    m_result->setObjectName(QStringLiteral("searchResult"));
    // A fixed width: a toolbar moves what no longer fits behind its extension button ("»")
    // and a sentence of any length here would push the filter and the panels' toggles there.
    m_result->setFixedWidth(m_result->fontMetrics().averageCharWidth() * 26);
    m_result->setTextFormat(Qt::PlainText);
    row->addWidget(m_edit, 1);
    row->addWidget(m_result);
    connect(m_edit, &QLineEdit::textEdited, this, &SearchField::updateCompletions);
    // Any other change of the text (a completion taken, the arrows in the popup, clear()) also
    // makes a running scan's answer stale.
    // (textEdited comes first: a scan it started for this very text stays.)
    connect(m_edit, &QLineEdit::textChanged, this, [this](const QString& text) {
        if (m_cancel && text != m_scanFieldText)
            cancelScan();
    });
    // Installed after the completer's own filter on its popup, so it runs first.
    m_completer->popup()->installEventFilter(this);
    connect(m_edit, &QLineEdit::returnPressed, this, [this] { search(m_edit->text()); });
    connect(m_completer, qOverload<const QString&>(&QCompleter::activated), this, [this](const QString& text) { search(text); });
    setNoCluster();
}

bool SearchField::eventFilter(QObject* watched, QEvent* event)
{
    // While the popup is open it has the keyboard, and QCompleter answers Enter by activating
    // the popup's current row after the line edit's returnPressed: two searches, the second
    // for another name. Enter searches exactly what the field shows, once.
    if (watched == m_completer->popup() && event->type() == QEvent::KeyPress) {
        const int key = static_cast<QKeyEvent*>(event)->key();
        if (key == Qt::Key_Return || key == Qt::Key_Enter) {
            m_completer->popup()->hide();
            search(m_edit->text());
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

void SearchField::cancelPending()
{
    if (!m_cancel)
        return;
    cancelScan();
    setResult({});
}

void SearchField::setIndex(std::shared_ptr<const model::SearchIndex> index)
{
    cancelScan();
    m_index = std::move(index);
    m_edit->setEnabled(m_index != nullptr);
    m_edit->setPlaceholderText(m_index ? tr("Find a node or pod (namespace/name)") : tr("Indexing names\u2026"));
    m_completions->setStringList({});
    setResult({});
}

void SearchField::setNoCluster()
{
    setIndex(nullptr);
    m_edit->setPlaceholderText(tr("No cluster to search"));
}

void SearchField::setPlanState(std::shared_ptr<const model::PlanLedger> plan)
{
    m_plan = std::move(plan);
}

void SearchField::cancelScan()
{
    ++m_generation;
    if (m_cancel)
        m_cancel->store(true);
    m_cancel.reset();
}

void SearchField::setResult(const QString& text)
{
    m_resultText = text;
    m_result->setText(m_result->fontMetrics().elidedText(text, Qt::ElideMiddle, m_result->width()));
    m_result->setToolTip(text);
}

QString SearchField::resultText() const
{
    return m_resultText;
}

void SearchField::updateCompletions(const QString& text)
{
    cancelScan();
    QStringList list;
    const std::string wanted = text.trimmed().toStdString();
    if (m_index)
        for (const auto& m : m_index->complete(wanted, kMaxCompletions))
            list << QString::fromStdString(m.text);
    m_completions->setStringList(list);
    if (m_index && wanted.size() >= 2 && list.size() < kMaxCompletions) {
        // The names that contain the text elsewhere: a scan of every name, on a worker.
        const std::uint64_t generation = m_generation;
        m_cancel = std::make_shared<std::atomic<bool>>(false);
        m_scanFieldText = m_edit->text();
        QPointer<SearchField> self(this);
        const std::size_t room = static_cast<std::size_t>(kMaxCompletions - list.size());
        (void)QtConcurrent::run([self, generation, index = m_index, wanted, room, cancel = m_cancel] {
            auto found = std::make_shared<std::vector<model::SearchIndex::Match>>(index->containing(wanted, room, cancel.get()));
            if (cancel->load())
                return;
            QMetaObject::invokeMethod(
                self,
                [self, generation, found] {
                    if (!self || generation != self->m_generation)
                        return;
                    self->m_cancel.reset(); // answered: nothing runs
                    if (found->empty())
                        return;
                    QStringList more = self->m_completions->stringList();
                    for (const auto& m : *found)
                        more << QString::fromStdString(m.text);
                    self->m_completions->setStringList(more);
                    if (self->m_edit->hasFocus())
                        self->m_completer->complete();
                    emit self->completionsUpdated();
                },
                Qt::QueuedConnection);
        });
    }
    if (!list.isEmpty()) {
        // As wide as the longest completion (a pod's namespace/name outgrows the field), at
        // least the field's width, at most 900 px.
        QAbstractItemView* popup = m_completer->popup();
        int widest = 0;
        for (const QString& c : list)
            widest = std::max(widest, popup->fontMetrics().horizontalAdvance(c));
        // A minimum width: the line edit's own complete() after a key places the popup at the
        // field's width, which a minimum overrides.
        popup->setMinimumWidth(std::min(900, std::max(m_edit->width(), widest + popup->verticalScrollBar()->sizeHint().width() + 24)));
        m_completer->complete();
    }
}

QStringList SearchField::completions() const
{
    return m_completions->stringList();
}

model::NodeId SearchField::search(const QString& text)
{
    const QString wanted = text.trimmed();
    if (!m_index || wanted.isEmpty())
        return {};
    cancelScan();
    const model::SearchIndex::Match m = m_index->find(wanted.toStdString());
    if (m.node.isValid() || m.pod.isValid()) {
        const model::NodeId found = reportMatch(m);
        emit searchFinished();
        return found;
    }
    // No name starts with it: the first that contains it, from a scan on a worker. Until it
    // answers, and when it finds nothing, the selection stays as it was (the result line says
    // what the search found): a typo never throws away the node the user was looking at.
    setResult(tr("Looking for \u201c%1\u201d inside names\u2026").arg(wanted));
    const std::uint64_t generation = m_generation;
    m_cancel = std::make_shared<std::atomic<bool>>(false);
    m_scanFieldText = m_edit->text();
    QPointer<SearchField> self(this);
    (void)QtConcurrent::run([self, generation, index = m_index, wanted, cancel = m_cancel] {
        const auto found = index->containing(wanted.toStdString(), 1, cancel.get());
        if (cancel->load())
            return;
        const model::SearchIndex::Match match = found.empty() ? model::SearchIndex::Match {} : found.front();
        QMetaObject::invokeMethod(
            self,
            [self, generation, match, wanted] {
                if (!self || generation != self->m_generation)
                    return;
                self->m_cancel.reset(); // answered: nothing runs
                if (match.node.isValid() || match.pod.isValid())
                    self->reportMatch(match);
                else
                    self->setResult(tr("No match: no node or pod name contains \u201c%1\u201d").arg(wanted));
                emit self->searchFinished();
            },
            Qt::QueuedConnection);
    });
    return {};
}

model::NodeId SearchField::reportMatch(const model::SearchIndex::Match& m)
{
    const model::ClusterStore& store = *m_index->store();
    const QString what = QString::fromStdString(m.text);
    // Under a plan the pod is where the plan put it, and a node the plan removed is gone.
    const bool planned = m_plan && &m_plan->store() == &store;
    auto nodeText = [this, &store, planned](model::NodeId n) {
        const std::string_view name = planned ? m_plan->nodeName(n) : store.nodeName(n);
        return QString::fromUtf8(name.data(), static_cast<qsizetype>(name.size()));
    };
    model::NodeId node = m.node;
    if (m.pod.isValid() && planned)
        node = m_plan->podNode(m.pod);
    if (!m.pod.isValid()) {
        // A node the plan removed or drained is found too (its cell, crossed, and its inspector
        // show what the plan did to it), and the result says so.
        QString description = tr("Node %1").arg(nodeText(node));
        if (planned && !m_plan->nodePresent(node))
            description = tr("Node %1 is removed by the plan").arg(nodeText(node));
        else if (planned && m_plan->nodeCordonedByPlan(node))
            description = tr("Node %1 is drained by the plan (to be removed)").arg(nodeText(node));
        setResult(description);
        emit nodeFound(node, description);
        return node;
    }
    if (!node.isValid() || (planned && !m_plan->nodePresent(node))) {
        const auto storeNode = store.podNodeName(m.pod);
        if (planned && m.node.isValid())
            setResult(tr("Pod %1 is pending under the plan (it ran on %2)").arg(what, nodeText(m.node)));
        else if (storeNode.empty())
            setResult(tr("Pod %1 is pending (no node)").arg(what));
        else
            setResult(tr("Pod %1 names node %2, which is not in the input")
                          .arg(what, QString::fromUtf8(storeNode.data(), static_cast<qsizetype>(storeNode.size()))));
        emit selectionCleared();
        return {};
    }
    const QString description = tr("Pod %1 on node %2").arg(what, nodeText(node));
    setResult(description);
    emit nodeFound(node, description);
    emit podFound(m.pod);
    return node;
}

} // namespace fleet::views
