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

#include <atomic>
#include <cerrno>
#include <climits>
#include <csignal>
#include <cstdio>
#include <mutex>
#include <set>
#include <sys/prctl.h>
#include <unistd.h>

namespace fleet::importers::kube {

namespace {

// The process groups of the exec plugins running now (0: a free slot). A plugin runs in its
// own process group, so that a plugin cut at its bound is killed with every process it started;
// that also keeps a terminal's Ctrl-C (and a SIGTERM to Fleetscope) from reaching it. So when
// Fleetscope is ended by SIGINT, SIGTERM or SIGHUP, a handler kills these groups, then lets
// the signal do what it did before (the previous handler, or the default action). After a
// SIGKILL of Fleetscope the plugin itself gets SIGKILL (PR_SET_PDEATHSIG); processes it started
// in the background then stay (nothing runs in a killed process).
constexpr int kPluginSlots = 16;
std::atomic<pid_t> g_pluginGroups[kPluginSlots];
constexpr int kEndingSignals[3] = { SIGINT, SIGTERM, SIGHUP };
struct sigaction g_previousAction[3];

extern "C" void killPluginGroupsAndChain(int sig)
{
    const int savedErrno = errno;
    for (auto& group : g_pluginGroups)
        if (const pid_t pg = group.load(); pg > 0)
            ::kill(-pg, SIGKILL);
    for (int i = 0; i < 3; ++i) {
        if (kEndingSignals[i] != sig)
            continue;
        const struct sigaction& previous = g_previousAction[i];
        if (!(previous.sa_flags & SA_SIGINFO) && previous.sa_handler != SIG_DFL && previous.sa_handler != SIG_IGN) {
            errno = savedErrno;
            previous.sa_handler(sig);
            return;
        }
        struct sigaction dfl { };
        dfl.sa_handler = SIG_DFL;
        sigemptyset(&dfl.sa_mask);
        ::sigaction(sig, &dfl, nullptr);
        errno = savedErrno;
        ::raise(sig); // blocked while this handler runs: delivered, with the default action, on return
        return;
    }
}

// Installs the handler once per process (a signal the process ignores stays ignored).
void watchEndingSignals()
{
    static std::once_flag once;
    std::call_once(once, [] {
        for (int i = 0; i < 3; ++i) {
            struct sigaction previous { };
            ::sigaction(kEndingSignals[i], nullptr, &previous);
            if (previous.sa_handler == SIG_IGN)
                continue;
            g_previousAction[i] = previous;
            struct sigaction sa { };
            sa.sa_handler = killPluginGroupsAndChain;
            sigemptyset(&sa.sa_mask);
            ::sigaction(kEndingSignals[i], &sa, nullptr);
        }
    });
}

// Holds a running plugin's process group in g_pluginGroups for its lifetime.
class PluginGroup {
public:
    explicit PluginGroup(pid_t group)
    {
        for (auto& slot : g_pluginGroups) {
            pid_t free = 0;
            if (slot.compare_exchange_strong(free, group)) {
                m_slot = &slot;
                return;
            }
        }
    }
    ~PluginGroup()
    {
        if (m_slot)
            m_slot->store(0);
    }
    PluginGroup(const PluginGroup&) = delete;
    PluginGroup& operator=(const PluginGroup&) = delete;

private:
    std::atomic<pid_t>* m_slot = nullptr;
};

} // namespace

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
    // PR_SET_PDEATHSIG: killed with Fleetscope's thread that started it, even by SIGKILL.
    p.setChildProcessModifier([] {
        ::setpgid(0, 0);
        ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    });
    watchEndingSignals();
    QStringList args;
    for (const auto& a : e.args)
        args << QString::fromStdString(a);
    p.start(QString::fromStdString(e.command), args);
    const std::string who = "exec plugin " + e.command + " of user \"" + config.user.name + "\"";
    if (!p.waitForStarted(10000))
        fail({}, who + " could not be started" + (e.installHint.empty() ? std::string() : ": " + e.installHint));
    // Listed from here on; a signal that ends Fleetscope between the start and here leaves the
    // plugin to PR_SET_PDEATHSIG (its background children stay): a window of microseconds.
    // The bound is the request's, and the wait is reported as a slow request's (waitTick).
    const PluginGroup group(static_cast<pid_t>(p.processId()));
    const auto bound = execBound();
    const auto started = std::chrono::steady_clock::now();
    bool finished = false;
    for (;;) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(started + bound - std::chrono::steady_clock::now());
        if (left.count() <= 0)
            break;
        finished = p.waitForFinished(static_cast<int>(std::min<std::int64_t>(left.count(), 250)));
        if (finished || p.state() == QProcess::NotRunning) {
            finished = true;
            break;
        }
        if (waitTick)
            waitTick();
    }
    if (!finished) {
        if (const qint64 pid = p.processId(); pid > 0)
            ::kill(-static_cast<pid_t>(pid), SIGKILL);
        p.kill();
        p.waitForFinished(5000);
        fail({},
            who + " did not finish within " + secondsText(bound)
                + (bound == config.requestTimeout ? " (the request timeout" + requestTimeoutSetting(config.input) + ")" : std::string())
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

std::chrono::milliseconds KubeCredentials::execBound() const noexcept
{
    if (config.requestTimeout.count() > 0 && config.requestTimeout < config.execTimeout)
        return config.requestTimeout;
    return config.execTimeout;
}

} // namespace fleet::importers::kube
