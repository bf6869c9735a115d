// SPDX-License-Identifier: Apache-2.0
#include "windowstatusbar.h"

#include "app/controllers/importcontroller.h"
#include "app/window/statusfield.h"

#include <QLabel>
#include <QLayout>
#include <QMainWindow>
#include <QProgressBar>
#include <QRegularExpression>
#include <QStatusBar>
#include <QTimer>
#include <QToolButton>

#include <algorithm>

namespace fleet::app {

WindowStatusBar::WindowStatusBar(QMainWindow* window, ImportController* imports)
    : QObject(window)
    , m_window(window)
    , m_imports(imports)
{
    QStatusBar* bar = window->statusBar();
    // Long totals are shortened (StatusField), never cut off and never widen the window.
    m_totalsLabel = new StatusField(window);
    m_totalsLabel->setObjectName(QStringLiteral("totalsLabel"));
    m_totalsLabel->setToolTip(
        tr("GPUs, CPU and memory: requested by counted pods, of allocatable. Counted pods: bound to a "
           "node and not Succeeded/Failed. Pending: no node yet. On unknown nodes: bound to a node that is not in the input."));
    bar->addWidget(m_totalsLabel, 1);

    m_warningCountLabel = new QLabel(window);
    m_warningCountLabel->setObjectName(QStringLiteral("warningCountLabel"));
    bar->addPermanentWidget(m_warningCountLabel);

    m_hoverLabel = new StatusField(window);
    m_hoverLabel->setObjectName(QStringLiteral("hoverLabel"));
    bar->addPermanentWidget(m_hoverLabel);

    // The import's progress and messages ("Import of ... cancelled.") in one field beside the
    // bar: one line that shortens to fit, never clipped by the bar's own small width and never
    // in place of the totals (QStatusBar::showMessage() would hide them).
    m_importStatus = new StatusField(window);
    m_importStatus->setObjectName(QStringLiteral("importStatus"));
    m_importStatus->setElideMode(Qt::ElideRight); // a sentence: read from its start
    bar->addPermanentWidget(m_importStatus);
    m_messageTimer = new QTimer(this);
    m_messageTimer->setSingleShot(true);
    connect(m_messageTimer, &QTimer::timeout, this, [this] {
        if (!m_imports->isBusy())
            m_importStatus->setText(QString());
    });

    // The what-if's messages (a refused drop's reasons), apart from the import's.
    m_planStatus = new StatusField(window);
    m_planStatus->setObjectName(QStringLiteral("planStatus"));
    // Sentences, cut at their end where the bar is short (their codes lead a refusal's shorter
    // variants); the tooltip gives the whole message.
    m_planStatus->setElideMode(Qt::ElideRight);
    bar->addPermanentWidget(m_planStatus);
    m_planStatus->hide(); // only while it has a message: the totals never give way to it
    m_planMessageTimer = new QTimer(this);
    m_planMessageTimer->setSingleShot(true);
    connect(m_planMessageTimer, &QTimer::timeout, this, [this] {
        m_planStatus->setText(QString());
        m_planStatus->hide();
        fitHoverField();
    });

    m_progressBar = new QProgressBar(window);
    m_progressBar->setObjectName(QStringLiteral("importProgress"));
    m_progressBar->setMinimumWidth(40);
    m_progressBar->setMaximumWidth(180);
    m_progressBar->setRange(0, 1000);
    m_progressBar->setTextVisible(false); // the text is m_importStatus's
    bar->addPermanentWidget(m_progressBar);

    m_cancelButton = new QToolButton(window);
    m_cancelButton->setObjectName(QStringLiteral("cancelImportButton"));
    m_cancelButton->setText(tr("Cancel"));
    connect(m_cancelButton, &QToolButton::clicked, this, &WindowStatusBar::cancelRequested);
    bar->addPermanentWidget(m_cancelButton);
    setBusy(false);

    // A user allowed to list pods in some namespaces only sees those: said in the status bar
    // for as long as it lasts, beside the totals it makes smaller than the cluster's.
    m_partialViewNotice = new StatusField(window);
    m_partialViewNotice->setObjectName(QStringLiteral("partialViewNotice"));
    m_partialViewNotice->setStyleSheet(QStringLiteral("color: #8a5a00; font-weight: bold;"));
    bar->addPermanentWidget(m_partialViewNotice);
    m_partialViewNotice->hide();
}

void WindowStatusBar::setBusy(bool busy)
{
    m_progressBar->setVisible(busy);
    m_cancelButton->setVisible(busy);
    m_cancelButton->setEnabled(busy);
}

void WindowStatusBar::importStarted(const QString& label)
{
    setBusy(true);
    m_progressBar->setToolTip(tr("Reading %1").arg(label));
    m_importStatus->setToolTip(tr("Reading %1").arg(label));
    m_messageTimer->stop();
    setProgress(-1);
}

void WindowStatusBar::setProgress(int permille)
{
    if (permille < 0) {
        m_progressBar->setRange(0, 0); // busy indicator until the total is known
        m_importStatus->setVariants({ tr("Importing\u2026") });
    } else {
        m_progressBar->setRange(0, 1000);
        m_progressBar->setValue(permille);
        const int percent = permille / 10;
        m_importStatus->setVariants({ tr("Importing\u2026 %1%").arg(percent), tr("%1%").arg(percent) });
    }
}

void WindowStatusBar::setImportWaiting(const QString& text)
{
    m_importStatus->setToolTip(text);
    m_importStatus->setVariants({ tr("Importing\u2026 %1").arg(text), tr("Importing\u2026 (slow server)") });
}

void WindowStatusBar::showImportMessage(const QStringList& variants)
{
    m_importStatus->setToolTip(variants.value(0));
    m_importStatus->setVariants(variants);
    m_messageTimer->start(kMessageMs);
}

void WindowStatusBar::importEnded()
{
    setBusy(false);
    m_importStatus->setText(QString());
}

QString WindowStatusBar::importStatusText() const
{
    return m_importStatus->text();
}

QStringList planMessageVariants(const QString& message)
{
    // "Cannot move a to b: message (code); message (code). Shift+drop ..." -> "Cannot move a
    // to b: code, code" -> "Cannot move: code, code": shortened, a refusal keeps why (its reason
    // codes, whole), never just "Cannot move". A code carries the taint, label or resource it is
    // about ("untolerated-taint:nvidia.com/gpu=present:NoSchedule"): the characters of label and
    // taint keys and values (https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/),
    // '=' and ':' included; without '=' a taint's code was not found and the whole sentence was
    // elided in its middle, the code cut.
    static const QRegularExpression code(QStringLiteral("\\(([A-Za-z0-9][A-Za-z0-9._/:=+-]*)\\)"));
    const qsizetype colon = message.indexOf(QStringLiteral(": "));
    if (colon < 0)
        return { message };
    QStringList codes;
    for (auto it = code.globalMatch(message, colon); it.hasNext();) {
        const QString c = it.next().captured(1);
        if (!codes.contains(c))
            codes << c;
    }
    if (codes.isEmpty())
        return { message };
    const QString joined = codes.join(QStringLiteral(", "));
    QStringList variants { message, message.left(colon) + QStringLiteral(": ") + joined };
    // The verb alone ("Cannot move", "Cannot drain") before the codes: the subject's names are
    // in the tooltip.
    const QString head = message.left(colon);
    if (head.startsWith(QStringLiteral("Cannot ")) && head.count(QLatin1Char(' ')) > 1)
        variants << head.section(QLatin1Char(' '), 0, 1) + QStringLiteral(": ") + joined;
    return variants;
}

void WindowStatusBar::showPlanMessage(const QString& message)
{
    m_planStatus->setToolTip(message);
    m_planStatus->setVariants(planMessageVariants(message));
    m_planStatus->show();
    m_planMessageTimer->start(3 * kMessageMs);
    fitHoverField();
}

QString WindowStatusBar::planStatusText() const
{
    return m_planStatus->text();
}

void WindowStatusBar::setTotals(const ClusterTotals& totals)
{
    m_totalsLabel->setVariants(clusterTotalsVariants(totals));
    fitHoverField();
}

void WindowStatusBar::setWarningCount(std::size_t warnings)
{
    m_warningCountLabel->setText(formatWarningCount(warnings));
    m_warningCountLabel->setStyleSheet(warnings > 0 ? QStringLiteral("color: #8a5a00; font-weight: bold;") : QString());
    fitHoverField();
}

void WindowStatusBar::setTotalsToolTip(const QString& tip)
{
    m_totalsLabel->setToolTip(tip);
}

QString WindowStatusBar::totalsToolTip() const
{
    return m_totalsLabel->toolTipText();
}

QString WindowStatusBar::totalsText() const
{
    if (m_totalsLabel->text().isEmpty())
        return {};
    return m_totalsLabel->text() + QStringLiteral(" | ") + m_warningCountLabel->text();
}

QString WindowStatusBar::displayedTotalsText() const
{
    return m_totalsLabel->displayedText();
}

void WindowStatusBar::setHover(const QString& text)
{
    m_hoverLabel->setText(text);
    if (!text.isEmpty())
        fitHoverField();
}

QString WindowStatusBar::hoverText() const
{
    return m_hoverLabel->text();
}

void WindowStatusBar::setPartialView(const QStringList& variants, const QString& toolTip)
{
    m_partialViewNotice->setVariants(variants);
    m_partialViewNotice->setToolTip(toolTip);
    m_partialViewNotice->setVisible(!variants.isEmpty());
    fitHoverField();
}

QString WindowStatusBar::partialViewText() const
{
    return m_partialViewNotice->isHidden() ? QString() : m_partialViewNotice->text();
}

void WindowStatusBar::fitHoverField()
{
    // The hover field gets what the totals, the warning count and the import field leave;
    // below a few characters it hides. The totals' full text is never shortened for it.
    QStatusBar* bar = m_window->statusBar();
    // The what-if's message takes at most kPlanMessageShare of the bar and shortens (its reason
    // codes kept, planMessageVariants()): the totals keep the rest (a trial saw them cut to
    // "Nod…" while a refused drop's sentence showed).
    constexpr double kPlanMessageShare = 0.4;
    m_planStatus->setMaximumWidth(
        std::max(m_planStatus->minimumSizeHint().width(), static_cast<int>(bar->width() * kPlanMessageShare)));
    const int spacing = 2 * bar->layout()->spacing() + 24;
    int taken = m_totalsLabel->sizeHint().width() + m_warningCountLabel->sizeHint().width() + spacing;
    if (m_importStatus->isVisible())
        taken += m_importStatus->sizeHint().width();
    if (m_planStatus->isVisible())
        taken += std::min(m_planStatus->sizeHint().width(), m_planStatus->maximumWidth());
    if (m_partialViewNotice->isVisible())
        taken += m_partialViewNotice->sizeHint().width();
    if (m_progressBar->isVisible())
        taken += m_progressBar->minimumWidth() + m_cancelButton->sizeHint().width();
    const int room = bar->width() - taken;
    const bool fits = room >= m_hoverLabel->minimumSizeHint().width() * 2;
    m_hoverLabel->setMaximumWidth(std::max(0, room));
    m_hoverLabel->setVisible(fits && !m_hoverLabel->text().isEmpty());
}

} // namespace fleet::app
