// SPDX-License-Identifier: Apache-2.0
#include "searchfield.h"

#include <QAbstractItemView>
#include <QCompleter>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QScrollBar>
#include <QStringListModel>

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
    row->addWidget(m_edit, 1);
    row->addWidget(m_result);
    connect(m_edit, &QLineEdit::textEdited, this, &SearchField::updateCompletions);
    connect(m_edit, &QLineEdit::returnPressed, this, [this] { search(m_edit->text()); });
    connect(m_completer, qOverload<const QString&>(&QCompleter::activated), this, [this](const QString& text) { search(text); });
    setIndex(nullptr);
}

void SearchField::setIndex(std::shared_ptr<const model::SearchIndex> index)
{
    m_index = std::move(index);
    m_edit->setEnabled(m_index != nullptr);
    m_edit->setPlaceholderText(m_index ? tr("Find a node or pod (namespace/name)") : tr("Indexing names\u2026"));
    m_completions->setStringList({});
    m_result->clear();
}

void SearchField::updateCompletions(const QString& text)
{
    QStringList list;
    if (m_index)
        for (const auto& m : m_index->complete(text.trimmed().toStdString(), kMaxCompletions))
            list << QString::fromStdString(m.text);
    m_completions->setStringList(list);
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

QString SearchField::resultText() const
{
    return m_result->text();
}

model::NodeId SearchField::search(const QString& text)
{
    const QString wanted = text.trimmed();
    if (!m_index || wanted.isEmpty())
        return {};
    const model::SearchIndex::Match m = m_index->find(wanted.toStdString());
    const QString what = QString::fromStdString(m.text);
    if (!m.node.isValid() && !m.pod.isValid()) {
        m_result->setText(tr("No node or pod starts with \u201c%1\u201d").arg(wanted));
        return {};
    }
    if (!m.node.isValid()) {
        const auto nodeName = m_index->store()->podNodeName(m.pod);
        m_result->setText(nodeName.empty()
                ? tr("Pod %1 is pending (no node)").arg(what)
                : tr("Pod %1 names node %2, which is not in the input")
                      .arg(what, QString::fromUtf8(nodeName.data(), static_cast<qsizetype>(nodeName.size()))));
        return {};
    }
    const QString nodeName = QString::fromUtf8(m_index->store()->nodeName(m.node));
    const QString description = m.pod.isValid() ? tr("Pod %1 on node %2").arg(what, nodeName) : tr("Node %1").arg(nodeName);
    m_result->setText(description);
    emit nodeFound(m.node, description);
    return m.node;
}

} // namespace fleet::views
