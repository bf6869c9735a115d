// SPDX-License-Identifier: Apache-2.0
#include "windowbanners.h"

#include "app/controllers/importcontroller.h"
#include "app/window/clustertotals.h"

#include <QFrame>
#include <QHBoxLayout>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QStringList>
#include <QToolButton>
#include <QVBoxLayout>

namespace fleet::app {

namespace {

// A one-line banner above the map: coloured frame, word-wrapped text, optional button, close.
QFrame* makeBanner(QWidget* parent, const QString& objectName, const QString& style, QLabel** label, QHBoxLayout** layout)
{
    auto* frame = new QFrame(parent);
    frame->setObjectName(objectName);
    frame->setStyleSheet(style);
    frame->setFrameShape(QFrame::StyledPanel);
    auto* row = new QHBoxLayout(frame);
    row->setContentsMargins(8, 4, 8, 4);
    *label = new QLabel(frame);
    (*label)->setObjectName(objectName + QStringLiteral("Text"));
    (*label)->setWordWrap(true);
    (*label)->setTextInteractionFlags(Qt::TextSelectableByMouse);
    row->addWidget(*label, 1);
    auto* close = new QToolButton(frame);
    close->setText(QStringLiteral("\u2715"));
    close->setToolTip(QObject::tr("Hide"));
    close->setAutoRaise(true);
    QObject::connect(close, &QToolButton::clicked, frame, &QWidget::hide);
    row->addWidget(close);
    frame->hide();
    *layout = row;
    return frame;
}

} // namespace

QString withFullStop(const QString& sentence)
{
    const QString trimmed = sentence.trimmed();
    if (trimmed.isEmpty() || trimmed.endsWith(QLatin1Char('.')) || trimmed.endsWith(QLatin1Char('!'))
        || trimmed.endsWith(QLatin1Char('?')))
        return trimmed;
    return trimmed + QLatin1Char('.');
}

WindowBanners::WindowBanners(QWidget* window, QWidget* central, QVBoxLayout* column,
                             std::function<std::shared_ptr<const ImportedCluster>()> shownCluster)
    : QObject(window)
    , m_window(window)
    , m_shownCluster(std::move(shownCluster))
{
    QHBoxLayout* errorRow = nullptr;
    m_errorBanner = makeBanner(central, QStringLiteral("errorBanner"),
        QStringLiteral("QFrame#errorBanner { background: #fde2e1; color: #611a15; border: 1px solid #e0a8a4; }"), &m_errorLabel,
        &errorRow);
    m_errorLabel->setTextFormat(Qt::RichText);
    column->addWidget(m_errorBanner);

    QHBoxLayout* warningRow = nullptr;
    m_warningBanner = makeBanner(central, QStringLiteral("warningBanner"),
        QStringLiteral("QFrame#warningBanner { background: #fff4ce; color: #5c4400; border: 1px solid #e6d28a; }"),
        &m_warningLabel, &warningRow);
    auto* details = new QPushButton(tr("Details\u2026"), m_warningBanner);
    details->setObjectName(QStringLiteral("warningDetailsButton"));
    connect(details, &QPushButton::clicked, this, &WindowBanners::showWarningDetails);
    warningRow->insertWidget(1, details);
    column->addWidget(m_warningBanner);
}

QString WindowBanners::showImportFailed(const QString& message, const QString& previousLabel)
{
    const QString kept = previousLabel.isEmpty() ? QString() : tr("The previous cluster (%1) is still shown.").arg(previousLabel);
    // ImportError::what() names the file and the place already; a sentence of its own.
    const QString sentence = withFullStop(message);
    m_errorMessage = tr("Import failed: %1 %2").arg(sentence, kept).trimmed();
    m_errorLabel->setText(tr("<b>Import failed:</b> %1 %2").arg(sentence.toHtmlEscaped(), kept.toHtmlEscaped()).trimmed());
    m_errorBanner->show();
    return m_errorMessage;
}

void WindowBanners::showImported(const ImportedCluster& cluster)
{
    m_errorBanner->hide();
    const auto warnings = cluster.report.warnings.size();
    if (warnings > 0) {
        m_warningLabel->setText(tr("%1 while reading %2 (Details lists all): %3")
                                    .arg(formatWarningCount(warnings), cluster.sourceLabel,
                                        QString::fromStdString(cluster.report.warnings.front())));
        m_warningBanner->show();
    } else {
        m_warningBanner->hide();
    }
}

void WindowBanners::showWarning(const QString& text)
{
    m_warningLabel->setText(text);
    m_warningBanner->show();
}

QString WindowBanners::errorText() const
{
    return m_errorBanner->isHidden() ? QString() : m_errorMessage;
}

QString WindowBanners::warningText() const
{
    return m_warningBanner->isHidden() ? QString() : m_warningLabel->text();
}

void WindowBanners::showWarningDetails()
{
    const std::shared_ptr<const ImportedCluster> cluster = m_shownCluster();
    if (!cluster)
        return;
    auto* box = new QMessageBox(QMessageBox::Warning, tr("Import Warnings"),
        tr("%1 while reading %2.").arg(formatWarningCount(cluster->report.warnings.size()), cluster->sourceLabel),
        QMessageBox::Close, m_window);
    QStringList lines;
    for (const std::string& w : cluster->report.warnings)
        lines << QString::fromStdString(w);
    box->setDetailedText(lines.join(QLatin1Char('\n')));
    box->setAttribute(Qt::WA_DeleteOnClose);
    connect(box, &QDialog::finished, this, &WindowBanners::dialogClosed);
    box->open();
}

} // namespace fleet::app
