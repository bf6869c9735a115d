// SPDX-License-Identifier: Apache-2.0
#include "importers/kube/kubecredentials_p.h"

#include "importers/optionfile.h"
#include "importers/quotedtext.h"
#include "importers/terminaltext.h"

#include <QByteArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QProcessEnvironment>

#include <climits>
#include <csignal>
#include <cstdio>
#include <mutex>
#include <set>
#include <unistd.h>

namespace fleet::importers::kube {

// "1.5 s", "60 s": a duration for a message.
std::string secondsText(std::chrono::milliseconds d)
{
    char text[32];
    if (d.count() % 1000 == 0)
        std::snprintf(text, sizeof text, "%lld s", static_cast<long long>(d.count() / 1000));
    else
        std::snprintf(text, sizeof text, "%.1f s", static_cast<double>(d.count()) / 1000.0);
    return text;
}

// A file a kubeconfig names (certificate-authority, client-certificate, client-key, tokenFile),
// through the one option file reader: a regular file of the kind's size at most.
std::string readKubeconfigFile(const std::string& server, const std::string& path, const char* what)
{
    const OptionFileKind kind = std::string_view(what) == "tokenFile" ? OptionFileKind::BearerToken : OptionFileKind::PemFile;
    try {
        return readOptionFile(path, kind);
    } catch (const OptionFileError& e) {
        throw KubeApiError(server, {}, 0, std::string("cannot read the ") + what + " file " + path + ": it " + e.message());
    }
}

std::optional<std::string> cleartextCredentialsWarning(const ResolvedKubeconfig& config)
{
    if (!config.cluster.server.starts_with("http://"))
        return std::nullopt;
    const KubeconfigUser& u = config.user;
    std::string what;
    if (!u.token.empty())
        what = "the bearer token";
    else if (!u.tokenFile.empty())
        what = "the bearer token (from the tokenFile " + u.tokenFile + ")";
    else if (u.exec)
        what = "a bearer token from the exec plugin " + u.exec->command;
    const bool certificate = !u.clientCertificate.empty() || !u.clientCertificateData.empty() || !u.clientKey.empty()
        || !u.clientKeyData.empty();
    if (what.empty() && !certificate)
        return std::nullopt;
    std::string text = "warning: user \"" + u.name + "\" of " + redactedUrl(config.cluster.server) + ": the server URL is plain http://";
    if (!what.empty())
        text += ", so " + what + " travels in cleartext: anyone on the network path can read and reuse it";
    if (certificate)
        text += std::string(what.empty() ? ", so" : "; and") + " the client certificate is not sent (it needs TLS)";
    return terminalLine(text + "; use an https:// server URL");
}

void warnCleartextCredentials(const ResolvedKubeconfig& config)
{
    const auto warning = cleartextCredentialsWarning(config);
    if (!warning)
        return;
    static std::mutex mutex;
    static std::set<std::string> warned;
    {
        const std::lock_guard lock(mutex);
        if (!warned.insert(*warning).second)
            return;
    }
    printTerminalf(stderr, "%s\n", warning->c_str());
}

KubeCredentials::KubeCredentials(const ResolvedKubeconfig& config, std::string server)
    : config(config)
    , server(std::move(server))
{
}

void KubeCredentials::refuseUnsupported() const
{
    const KubeconfigUser& u = config.user;
    if (!u.username.empty() || !u.password.empty())
        fail({}, "user \"" + u.name + "\" uses basic auth (username/password), which Fleetscope does not support");
}

void KubeCredentials::load()
{
    const KubeconfigUser& u = config.user;
    certPem = !u.clientCertificateData.empty() ? u.clientCertificateData
        : !u.clientCertificate.empty()          ? readKubeconfigFile(server, u.clientCertificate, "client-certificate")
                                                : std::string();
    keyPem = !u.clientKeyData.empty() ? u.clientKeyData
        : !u.clientKey.empty()         ? readKubeconfigFile(server, u.clientKey, "client-key")
                                       : std::string();
    staticToken = u.token;
    std::string tokenSource = "the token of user \"" + u.name + "\"";
    if (staticToken.empty() && !u.tokenFile.empty()) {
        staticToken = readKubeconfigFile(server, u.tokenFile, "tokenFile");
        while (!staticToken.empty() && (staticToken.back() == '\n' || staticToken.back() == '\r'))
            staticToken.pop_back();
        // client-go refuses an empty token file too ("read empty token from file").
        tokenSource = "the tokenFile " + u.tokenFile + " of user \"" + u.name + "\"";
        if (staticToken.empty())
            fail({}, tokenSource + " is empty");
    }
    if (auto problem = staticToken.empty() ? std::nullopt : bearerTokenProblem(staticToken, tokenSource)) {
        staticToken.clear();
        fail({}, *problem);
    }
    if (u.exec && u.exec->interactiveMode == "Always")
        fail({}, "the exec plugin of user \"" + u.name + "\" (" + u.exec->command
                     + ") needs a terminal (interactiveMode: Always); Fleetscope runs it without one. Log in on a terminal first, "
                       "or configure the plugin with interactiveMode: IfAvailable or Never");
}

bool KubeCredentials::ensureExecCredential(const std::string& caPem)
{
    if (!config.user.exec)
        return false;
    if (!haveExecCredential || (execExpiry && QDateTime::currentDateTimeUtc() >= *execExpiry))
        return runExecPlugin(caPem);
    return false;
}

bool KubeCredentials::renewExecCredential(const std::string& caPem)
{
    return runExecPlugin(caPem);
}

bool KubeCredentials::runExecPlugin(const std::string& caPem)
{
    const ExecConfig& e = *config.user.exec;
    QJsonObject spec{{"interactive", false}};
    if (e.provideClusterInfo) {
        QJsonObject cluster{{"server", QString::fromStdString(config.cluster.server)}};
        if (!config.cluster.tlsServerName.empty())
            cluster["tls-server-name"] = QString::fromStdString(config.cluster.tlsServerName);
        if (config.cluster.insecureSkipTlsVerify)
            cluster["insecure-skip-tls-verify"] = true;
        if (!caPem.empty())
            cluster["certificate-authority-data"] = QString::fromLatin1(QByteArray::fromStdString(caPem).toBase64());
        spec["cluster"] = cluster;
    }
    const QJsonObject info{{"apiVersion", QString::fromStdString(e.apiVersion)}, {"kind", "ExecCredential"}, {"spec", spec}};
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    for (const auto& [name, value] : e.env)
        env.insert(QString::fromStdString(name), QString::fromStdString(value));
    env.insert("KUBERNETES_EXEC_INFO", QString::fromUtf8(QJsonDocument(info).toJson(QJsonDocument::Compact)));
    QProcess p;
    p.setProcessEnvironment(env);
    // Its own process group: a plugin cut at its timeout is killed with every process it
    // started (a shell script's children would otherwise keep running).
    p.setChildProcessModifier([] { ::setpgid(0, 0); });
    QStringList args;
    for (const auto& a : e.args)
        args << QString::fromStdString(a);
    p.start(QString::fromStdString(e.command), args);
    const std::string who = "exec plugin " + e.command + " of user \"" + config.user.name + "\"";
    if (!p.waitForStarted(10000))
        fail({}, who + " could not be started" + (e.installHint.empty() ? std::string() : ": " + e.installHint));
    if (!p.waitForFinished(static_cast<int>(std::min<std::int64_t>(config.execTimeout.count(), INT_MAX)))) {
        if (const qint64 pid = p.processId(); pid > 0)
            ::kill(-static_cast<pid_t>(pid), SIGKILL);
        p.kill();
        p.waitForFinished(5000);
        fail({},
            who + " did not finish within " + secondsText(config.execTimeout)
                + "; it and the processes it started were killed");
    }
    if (p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0) {
        const QString err = QString::fromUtf8(p.readAllStandardError()).section('\n', 0, 0);
        fail({}, who + " failed with exit code " + std::to_string(p.exitCode()) + (err.isEmpty() ? "" : ": " + quotedText(err.toStdString(), 200)));
    }
    const QJsonDocument out = QJsonDocument::fromJson(p.readAllStandardOutput());
    const QJsonObject status = out.object().value("status").toObject();
    if (!out.isObject() || out.object().value("kind").toString() != "ExecCredential")
        fail({}, who + " did not print an ExecCredential object");
    if (out.object().value("apiVersion").toString().toStdString() != e.apiVersion)
        fail({}, who + " answered with apiVersion " + out.object().value("apiVersion").toString().toStdString() + ", not " + e.apiVersion);
    execToken = status.value("token").toString().toStdString();
    if (auto problem = execToken.empty() ? std::nullopt : bearerTokenProblem(execToken, "the token given by " + who)) {
        execToken.clear();
        fail({}, *problem);
    }
    execCertPem = status.value("clientCertificateData").toString().toStdString();
    execKeyPem = status.value("clientKeyData").toString().toStdString();
    if (execToken.empty() && (execCertPem.empty() || execKeyPem.empty()))
        fail({}, who + " gave neither a token nor a client certificate and key");
    execExpiry.reset();
    const QString exp = status.value("expirationTimestamp").toString();
    if (!exp.isEmpty()) {
        QDateTime t = QDateTime::fromString(exp, Qt::ISODate);
        if (!t.isValid())
            fail({}, who + " gave an expirationTimestamp that is not RFC 3339: " + quotedText(exp.toStdString(), 60));
        execExpiry = t;
    }
    haveExecCredential = true;
    return !execCertPem.empty(); // a new client certificate needs a new TLS context
}

void KubeCredentials::redactCredentials(ApiResponse& r) const
{
    if (r.status == 200)
        return;
    for (const std::string* token : { &staticToken, &execToken }) {
        if (token->size() < 4)
            continue;
        for (std::size_t at = r.body.find(*token); at != std::string::npos; at = r.body.find(*token, at))
            r.body.replace(at, token->size(), "REDACTED");
    }
}

} // namespace fleet::importers::kube
