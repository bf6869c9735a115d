// SPDX-License-Identifier: Apache-2.0
#pragma once
// The banners above the fleet map: the import's error and the import's warnings.

#include <QObject>
#include <QString>

#include <functional>
#include <memory>

class QFrame;
class QLabel;
class QVBoxLayout;
class QWidget;

namespace fleet::app {

struct ImportedCluster;

/// `sentence` trimmed, with a full stop added unless it ends with '.', '!' or '?' (an empty
/// one stays empty): "a.json:3: bad quantity" -> "a.json:3: bad quantity.". Thread: any.
[[nodiscard]] QString withFullStop(const QString& sentence);

/// The two banners the main window shows above its map, each hidden until needed and closed by
/// its own button: the error banner ("errorBanner", rich text) says why the last import failed
/// and which cluster is still shown; the warning banner ("warningBanner") counts the shown
/// cluster's import warnings and quotes the first, and its Details button ("warningDetailsButton")
/// lists them all in a dialog; it also says when a listed live cluster cannot be watched. It owns
/// the banners' widgets (children of the central widget, added to its column) and their texts,
/// nothing of the cluster: `shownCluster` gives the cluster whose warnings Details lists.
/// Thread: GUI thread.
class WindowBanners : public QObject {
    Q_OBJECT
public:
    /// Adds the error banner, then the warning banner, to `column` (a layout of `central`).
    /// `window`: the Details dialog's parent.
    WindowBanners(QWidget* window, QWidget* central, QVBoxLayout* column,
                  std::function<std::shared_ptr<const ImportedCluster>()> shownCluster);

    /// Shows the error of a failed import: "Import failed: MESSAGE. The previous cluster (LABEL)
    /// is still shown." (`previousLabel` empty: no cluster is shown). Returns the plain text.
    QString showImportFailed(const QString& message, const QString& previousLabel);
    /// A new cluster is shown: hides the error, and shows its warnings (hides the banner when it has none).
    void showImported(const ImportedCluster& cluster);
    /// Shows `text` in the warning banner.
    void showWarning(const QString& text);

    /// The error banner's text (plain), or empty when it is hidden.
    [[nodiscard]] QString errorText() const;
    /// The warning banner's text, or empty when it is hidden.
    [[nodiscard]] QString warningText() const;

signals:
    /// The Details dialog closed (the window gives the map the focus back).
    void dialogClosed();

private:
    void showWarningDetails();

    QWidget* m_window = nullptr;
    std::function<std::shared_ptr<const ImportedCluster>()> m_shownCluster;
    QFrame* m_errorBanner = nullptr;
    QLabel* m_errorLabel = nullptr;
    QString m_errorMessage; // plain text of the error banner
    QFrame* m_warningBanner = nullptr;
    QLabel* m_warningLabel = nullptr;
};

} // namespace fleet::app
