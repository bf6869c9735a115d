// SPDX-License-Identifier: Apache-2.0
#pragma once
// A kubeconfig for the tests that reach a (fake) API server through the command line or the
// window: one cluster with a server URL and a CA file, one user with a bearer token, and one or
// more contexts that pair them. The text is the YAML kubectl itself accepts. Thread: the test's.

#include <QFile>
#include <QString>
#include <QStringList>

namespace fleet::tests {

struct KubeconfigSpec {
    QString server; ///< the cluster's server URL ("https://127.0.0.1:PORT")
    QString certificateAuthority; ///< the CA file (TestPki::caFile)
    QString token = QStringLiteral("fleet-test-token");
    QString cluster = QStringLiteral("fake");
    QString user = QStringLiteral("tester");
    QStringList contexts { QStringLiteral("alpha") }; ///< each pairs the cluster and the user
    QString currentContext = QStringLiteral("alpha");
};

/// The kubeconfig's YAML text.
inline QString kubeconfigText(const KubeconfigSpec& spec)
{
    QString text = QString("apiVersion: v1\nkind: Config\nclusters:\n- name: %1\n  cluster:\n    server: %2\n    certificate-authority: %3\n"
                           "users:\n- name: %4\n  user:\n    token: %5\ncontexts:\n")
                       .arg(spec.cluster, spec.server, spec.certificateAuthority, spec.user, spec.token);
    for (const QString& context : spec.contexts)
        text += QString("- name: %1\n  context: {cluster: %2, user: %3}\n").arg(context, spec.cluster, spec.user);
    return text + QString("current-context: %1\n").arg(spec.currentContext);
}

/// Writes kubeconfigText(spec) to `path`; returns `path`, or "" when it could not be written.
inline QString writeKubeconfig(const QString& path, const KubeconfigSpec& spec)
{
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        return {};
    const QByteArray bytes = kubeconfigText(spec).toUtf8();
    return f.write(bytes) == bytes.size() && f.flush() ? path : QString();
}

} // namespace fleet::tests
