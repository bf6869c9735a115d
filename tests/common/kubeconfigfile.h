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
    /// When not empty, the cluster's fields as YAML lines indented by four spaces, in place of
    /// `server` and `certificate-authority` (e.g. "    server: http://127.0.0.1:1").
    QString clusterFields;
    /// When not empty, the user's fields as YAML lines indented by four spaces, in place of the
    /// bearer token (an exec plugin, a client certificate, ...).
    QString userFields;
};

/// The kubeconfig's YAML text.
inline QString kubeconfigText(const KubeconfigSpec& spec)
{
    QString cluster = spec.clusterFields;
    if (cluster.isEmpty()) {
        cluster = QStringLiteral("    server: %1").arg(spec.server);
        if (!spec.certificateAuthority.isEmpty())
            cluster += QStringLiteral("\n    certificate-authority: %1").arg(spec.certificateAuthority);
    }
    const QString user = spec.userFields.isEmpty() ? QStringLiteral("    token: %1").arg(spec.token) : spec.userFields;
    QString text = QString("apiVersion: v1\nkind: Config\nclusters:\n- name: %1\n  cluster:\n%2\nusers:\n- name: %3\n  user:\n%4\ncontexts:\n")
                       .arg(spec.cluster, cluster, spec.user, user);
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
