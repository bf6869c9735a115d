// SPDX-License-Identifier: Apache-2.0
#include "filterfield.h"

#include "model/figures.h"

#include <QGridLayout>
#include <QLabel>
#include <QLineEdit>
#include <QTimer>

namespace fleet::views {

FilterField::FilterField(QWidget* parent)
    : QWidget(parent)
    , m_debounce(new QTimer(this))
{
    auto* grid = new QGridLayout(this);
    grid->setContentsMargins(0, 0, 0, 0);
    grid->setVerticalSpacing(2);
    m_edit = new QLineEdit(this);
    m_edit->setObjectName(QStringLiteral("filterField"));
    m_edit->setClearButtonEnabled(true);
    m_edit->setMinimumWidth(300);
    m_edit->setPlaceholderText(tr("Filter: label selector, workload:NS/NAME or namespace:NS"));
    m_edit->setToolTip(
        tr("A label selector as kubectl -l takes it: key=value, key!=value, key in (a,b), key notin (a), key, !key; "
           "commas AND them.\nOr workload:NAMESPACE/NAME, namespace:NAMESPACE to highlight the nodes running their pods."));
    m_count = new QLabel(this);
    m_count->setObjectName(QStringLiteral("filterCount"));
    m_error = new QLabel(this);
    m_error->setObjectName(QStringLiteral("filterError"));
    m_error->setTextFormat(Qt::RichText);
    m_error->hide();
    grid->addWidget(m_edit, 0, 0);
    grid->addWidget(m_count, 0, 1);
    grid->addWidget(m_error, 1, 0, 1, 2);
    m_debounce->setSingleShot(true);
    m_debounce->setInterval(300);
    connect(m_debounce, &QTimer::timeout, this, [this] { apply(); });
    connect(m_edit, &QLineEdit::textEdited, m_debounce, qOverload<>(&QTimer::start));
    connect(m_edit, &QLineEdit::returnPressed, this, [this] {
        // On Enter (not while typing) the cursor also jumps to where the text went wrong.
        const NodeFilterResult r = apply();
        if (r.errorPosition >= 0)
            m_edit->setCursorPosition(r.errorPosition);
    });
    connect(m_edit, &QLineEdit::textChanged, this, [this](const QString& t) {
        if (t.isEmpty())
            apply(); // the clear button
    });
}

void FilterField::setStore(std::shared_ptr<const model::ClusterStore> store)
{
    m_store = std::move(store);
    m_lastApplied.clear();
    if (!m_edit->text().trimmed().isEmpty())
        apply();
}

NodeFilterResult FilterField::apply()
{
    m_debounce->stop();
    if (!m_store)
        return {};
    NodeFilterResult result = evaluateNodeFilter(*m_store, m_edit->text());
    if (!result.error.isEmpty()) {
        showError(result.error, result.errorPosition);
        return result;
    }
    m_error->hide();
    m_error->clear();
    m_edit->setStyleSheet(QString());
    if (result.mask)
        m_count->setText(tr("%1 of %2 nodes")
                             .arg(QString::fromStdString(model::formatCount(static_cast<std::int64_t>(result.matching))),
                                 QString::fromStdString(model::formatCount(static_cast<std::int64_t>(m_store->nodeCount())))));
    else
        m_count->clear();
    emit maskChanged(result.mask);
    return result;
}

void FilterField::showError(const QString& message, int position)
{
    m_edit->setStyleSheet(QStringLiteral("QLineEdit { border: 2px solid #c62828; }"));
    m_error->setText(formatFilterError(m_edit->text(), position, message));
    m_error->show();
    m_count->setText(tr("invalid"));
}

QString FilterField::errorText() const
{
    return m_error->isVisible() || !m_error->text().isEmpty() ? m_error->text() : QString();
}

QString FilterField::countText() const
{
    return m_count->text();
}

} // namespace fleet::views
