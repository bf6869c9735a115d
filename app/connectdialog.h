#pragma once
// File > Connect: which kubeconfig and which of its contexts to connect to (issue 8).

#include <QDialog>

class QComboBox;
class QDialogButtonBox;
class QLabel;
class QLineEdit;

namespace fleet::app {

/// Lists the contexts of a kubeconfig as kubectl reads it (the file typed, or KUBECONFIG's
/// files merged, or ~/.kube/config: importers::kube::listKubeconfigContexts), the current
/// context first chosen. A kubeconfig that cannot be read shows its error (file, line, what) and
/// leaves OK disabled; so does one without contexts. Nothing is contacted until OK.
/// Thread: GUI thread (it reads small local files only).
class ConnectDialog : public QDialog {
    Q_OBJECT
public:
    explicit ConnectDialog(QWidget* parent = nullptr);

    /// The kubeconfig file as typed (empty: KUBECONFIG or ~/.kube/config).
    [[nodiscard]] QString kubeconfig() const;
    /// The context chosen.
    [[nodiscard]] QString context() const;
    /// Sets the file and lists its contexts again.
    void setKubeconfig(const QString& path);

    [[nodiscard]] QLineEdit* fileField() const noexcept { return m_file; }
    [[nodiscard]] QComboBox* contextField() const noexcept { return m_context; }
    [[nodiscard]] QLabel* errorLabel() const noexcept { return m_error; }
    [[nodiscard]] QDialogButtonBox* buttons() const noexcept { return m_buttons; }

private:
    void reload();

    QLineEdit* m_file = nullptr;
    QComboBox* m_context = nullptr;
    QLabel* m_error = nullptr;
    QDialogButtonBox* m_buttons = nullptr;
};

} // namespace fleet::app
