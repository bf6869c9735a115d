// SPDX-License-Identifier: Apache-2.0
#include "nodefilter.h"

#include "model/labelselector.h"

#include <QObject>

#include <algorithm>

namespace fleet::views {

namespace {

NodeFilterResult fromMask(std::vector<std::uint8_t> mask)
{
    NodeFilterResult r;
    r.matching = static_cast<std::size_t>(std::count(mask.begin(), mask.end(), std::uint8_t(1)));
    r.mask = std::make_shared<const std::vector<std::uint8_t>>(std::move(mask));
    return r;
}

NodeFilterResult failure(const QString& error, int position)
{
    NodeFilterResult r;
    r.error = error;
    r.errorPosition = position;
    return r;
}

} // namespace

NodeFilterResult evaluateNodeFilter(const model::ClusterStore& store, const QString& text)
{
    const QString trimmed = text.trimmed();
    if (trimmed.isEmpty())
        return {};
    const int lead = static_cast<int>(text.indexOf(trimmed.front()));
    static const QString kWorkload = QStringLiteral("workload:");
    static const QString kNamespace = QStringLiteral("namespace:");
    if (trimmed.startsWith(kWorkload) || trimmed.startsWith(kNamespace)) {
        const bool workload = trimmed.startsWith(kWorkload);
        const int valueAt = lead + static_cast<int>((workload ? kWorkload : kNamespace).size());
        const std::string value = trimmed.mid((workload ? kWorkload : kNamespace).size()).trimmed().toStdString();
        std::string ns = value;
        std::string name;
        if (workload) {
            const auto slash = value.find('/');
            if (value.empty() || slash == std::string::npos || slash == 0 || slash + 1 == value.size())
                return failure(QObject::tr("expected workload:NAMESPACE/NAME"),
                    valueAt + (slash == std::string::npos ? static_cast<int>(value.size()) : static_cast<int>(slash)));
            ns = value.substr(0, slash);
            name = value.substr(slash + 1);
        } else if (value.empty()) {
            return failure(QObject::tr("expected namespace:NAMESPACE"), valueAt);
        }
        std::vector<std::uint8_t> wanted(store.workloadCount(), 0);
        bool anyWorkload = false;
        if (workload)
            for (std::size_t w = 0; w < store.workloadCount(); ++w) {
                const model::WorkloadId id(static_cast<std::uint32_t>(w));
                if (store.workloadNamespace(id) == ns && store.workloadName(id) == name) {
                    wanted[w] = 1;
                    anyWorkload = true;
                }
            }
        if (workload && !anyWorkload)
            return failure(
                QObject::tr("no workload named %1/%2").arg(QString::fromStdString(ns), QString::fromStdString(name)), valueAt);
        std::vector<std::uint8_t> mask(store.nodeCount(), 0);
        bool anyPod = false;
        for (std::size_t i = 0; i < store.podCount(); ++i) {
            const model::PodId p(static_cast<std::uint32_t>(i));
            bool hit = false;
            if (workload) {
                const model::WorkloadId w = store.podWorkload(p);
                hit = w.isValid() && wanted[w.index()] != 0;
            } else {
                hit = store.podNamespace(p) == ns;
            }
            if (!hit)
                continue;
            anyPod = true;
            if (store.podIsCounted(p))
                mask[store.podNode(p).index()] = 1;
        }
        if (!workload && !anyPod)
            return failure(QObject::tr("no pods in namespace %1").arg(QString::fromStdString(ns)), valueAt);
        return fromMask(std::move(mask));
    }
    try {
        const std::string utf8 = text.toStdString();
        const model::LabelSelector selector = model::parseLabelSelector(utf8);
        return fromMask(model::nodesMatchingSelector(store, selector));
    } catch (const model::LabelSelectorError& e) {
        // position() counts bytes of the UTF-8 text; the line edit counts UTF-16 units.
        const std::string utf8 = text.toStdString();
        const std::size_t bytes = std::min(e.position(), utf8.size());
        const int position = static_cast<int>(QString::fromUtf8(utf8.data(), static_cast<qsizetype>(bytes)).size());
        return failure(QString::fromStdString(e.what()), position);
    }
}

QString formatFilterError(const QString& text, int position, const QString& message)
{
    const int at = std::clamp(position, 0, static_cast<int>(text.size()));
    QString line = text.left(at).toHtmlEscaped();
    const QString mark = at < text.size() ? text.mid(at, 1).toHtmlEscaped() : QStringLiteral("&nbsp;");
    line += QStringLiteral("<span style=\"background:#c62828;color:white\">") + mark + QStringLiteral("</span>");
    line += text.mid(at + 1).toHtmlEscaped();
    const QString caret = QString(at, QLatin1Char(' ')) + QLatin1Char('^');
    return QStringLiteral("<pre style=\"margin:0\">") + line + QLatin1Char('\n') + caret
        + QStringLiteral("</pre><span style=\"color:#c62828\">") + message.toHtmlEscaped() + QStringLiteral(" (at character ")
        + QString::number(at + 1) + QStringLiteral(")</span>");
}

} // namespace fleet::views
