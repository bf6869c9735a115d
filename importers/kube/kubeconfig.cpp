// SPDX-License-Identifier: Apache-2.0
#include "importers/kube/kubeconfig.h"

#include "importers/optionfile.h"
#include "importers/quotedtext.h"
#include "importers/yamlinput.h"

#include <QByteArray>

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <set>
#include <sstream>

namespace fleet::importers::kube {
namespace {

namespace fs = std::filesystem;

// One file's entries, in the order read, each remembering the file it came from.
struct Entry {
    YAML::Node body;
    std::string path; // "clusters[2].cluster", for errors
};

struct Merged {
    std::map<std::string, Entry> clusters, users;
    std::map<std::string, Entry> contexts;
    std::map<std::string, std::string> originOf; // "cluster:NAME" -> file
    std::string currentContext;
    std::vector<std::string> files;
};

[[noreturn]] void fail(const std::string& file, const YAML::Node& at, const std::string& path, const std::string& what)
{
    std::size_t line = 0;
    if (at.IsDefined() && at.Mark().line >= 0)
        line = static_cast<std::size_t>(at.Mark().line) + 1;
    throw KubeconfigError(file, line, path, what);
}

std::string typeName(const YAML::Node& n)
{
    switch (n.Type()) {
    case YAML::NodeType::Map: return "a mapping";
    case YAML::NodeType::Sequence: return "a list";
    case YAML::NodeType::Scalar: return "a scalar";
    case YAML::NodeType::Null: return "null";
    default: return "nothing";
    }
}

// A string field; a missing or null field is empty. Secrets are never echoed.
std::string str(const std::string& file, const YAML::Node& map, const char* key, const std::string& path)
{
    YAML::Node v = map[key];
    if (!v.IsDefined() || v.IsNull())
        return {};
    if (!v.IsScalar())
        fail(file, v, path + "." + key, "expected a string, found " + typeName(v));
    return v.Scalar();
}

bool boolean(const std::string& file, const YAML::Node& map, const char* key, const std::string& path)
{
    YAML::Node v = map[key];
    if (!v.IsDefined() || v.IsNull())
        return false;
    if (v.IsScalar()) {
        const std::string& s = v.Scalar();
        if (s == "true" || s == "True" || s == "TRUE")
            return true;
        if (s == "false" || s == "False" || s == "FALSE")
            return false;
    }
    fail(file, v, path + "." + key, "expected true or false");
}

// A *-data field: base64 in the file, bytes in the result.
std::string data(const std::string& file, const YAML::Node& map, const char* key, const std::string& path)
{
    const std::string text = str(file, map, key, path);
    if (text.empty())
        return {};
    auto decoded = QByteArray::fromBase64Encoding(QByteArray::fromStdString(text), QByteArray::AbortOnBase64DecodingErrors);
    if (!decoded)
        fail(file, map[key], path + "." + key, "not valid base64");
    return decoded.decoded.toStdString();
}

std::string resolvePath(const std::string& value, const std::string& originFile)
{
    if (value.empty() || fs::path(value).is_absolute())
        return value;
    std::error_code ec;
    fs::path base = fs::absolute(fs::path(originFile).parent_path(), ec);
    return (base / value).lexically_normal().string();
}

// Reads one file's named list ("clusters", "users", "contexts") into `into`; the first file
// to name an entry keeps it (client-go loader.go: "The first file to set a particular map key
// wins"); inside one file a later entry of the same name replaces an earlier one.
void readNamedList(const std::string& file, const YAML::Node& root, const char* list, const char* inner,
                   std::map<std::string, Entry>& into, std::map<std::string, std::string>& originOf, const char* kind)
{
    YAML::Node seq = root[list];
    if (!seq.IsDefined() || seq.IsNull())
        return;
    if (!seq.IsSequence())
        fail(file, seq, list, std::string("expected a list, found ") + typeName(seq));
    std::map<std::string, Entry> mine;
    for (std::size_t i = 0; i < seq.size(); ++i) {
        const std::string path = std::string(list) + "[" + std::to_string(i) + "]";
        YAML::Node item = seq[i];
        if (!item.IsMap())
            fail(file, item, path, std::string("expected a mapping, found ") + typeName(item));
        const std::string name = str(file, item, "name", path);
        if (name.empty())
            fail(file, item, path + ".name", "missing");
        YAML::Node body = item[inner];
        if (body.IsDefined() && !body.IsNull() && !body.IsMap())
            fail(file, body, path + "." + inner, std::string("expected a mapping, found ") + typeName(body));
        mine[name] = Entry{body.IsDefined() && !body.IsNull() ? body : YAML::Node(YAML::NodeType::Map), path + "." + inner};
    }
    for (auto& [name, entry] : mine) {
        if (into.count(name))
            continue;
        into.emplace(name, entry);
        originOf[std::string(kind) + ":" + name] = file;
    }
}

std::vector<std::string> precedence(const KubeconfigRequest& request, bool& explicitFile)
{
    explicitFile = !request.explicitPath.empty();
    if (explicitFile)
        return {request.explicitPath};
    std::vector<std::string> files;
    if (!request.kubeconfigEnv.empty()) {
        std::set<std::string> seen;
        std::stringstream in(request.kubeconfigEnv);
        std::string item;
        while (std::getline(in, item, ':'))
            if (!item.empty() && seen.insert(item).second)
                files.push_back(item);
        return files;
    }
    if (!request.homeDir.empty())
        files.push_back((fs::path(request.homeDir) / ".kube" / "config").string());
    return files;
}

Merged readAll(const KubeconfigRequest& request)
{
    bool explicitFile = false;
    Merged merged;
    for (const std::string& file : precedence(request, explicitFile)) {
        std::string text;
        try {
            text = readOptionFile(file, OptionFileKind::Kubeconfig);
        } catch (const OptionFileError& e) {
            if (e.missing() && !explicitFile)
                continue; // client-go skips missing files of KUBECONFIG
            throw KubeconfigError(file, 0, {},
                e.message() + (e.missing() ? (request.input == KubeconfigInput::WindowDialog ? " (given in the Kubeconfig field)" : " (given with --kubeconfig)")
                               : explicitFile ? "" : " (named by KUBECONFIG or ~/.kube/config)"));
        }
        merged.files.push_back(file);
        if (text.find_first_not_of(" \t\r\n") == std::string::npos)
            continue; // an empty file is an empty config, as in client-go
        YAML::Node root;
        try {
            root = loadBoundedYaml(text);
        } catch (const YamlInputError& e) {
            throw KubeconfigError(file, e.line(), e.keyPath(), e.message());
        }
        if (root.IsNull())
            continue;
        if (!root.IsMap())
            fail(file, root, {}, "expected a kubeconfig mapping (kind: Config), found " + typeName(root));
        readNamedList(file, root, "clusters", "cluster", merged.clusters, merged.originOf, "cluster");
        readNamedList(file, root, "users", "user", merged.users, merged.originOf, "user");
        readNamedList(file, root, "contexts", "context", merged.contexts, merged.originOf, "context");
        if (merged.currentContext.empty())
            merged.currentContext = str(file, root, "current-context", "current-context");
    }
    return merged;
}

std::string joined(const std::vector<std::string>& items)
{
    std::string out;
    for (const auto& s : items)
        out += (out.empty() ? "" : ", ") + s;
    return out.empty() ? "none" : out;
}

// Edit distance (Levenshtein) between a and b, each cut to 64 bytes: names are compared for a
// "did you mean", not matched.
std::size_t editDistance(std::string_view a, std::string_view b)
{
    a = a.substr(0, 64);
    b = b.substr(0, 64);
    std::vector<std::size_t> row(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j)
        row[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        std::size_t diagonal = row[0];
        row[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const std::size_t up = row[j];
            row[j] = std::min({ row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1) });
            diagonal = up;
        }
    }
    return row[b.size()];
}

// A context, cluster or user name in a message: escaped (importers/quotedtext.h), so that a
// name holding a line break or an escape sequence neither forges a line nor drives a terminal.
std::string named(std::string_view name)
{
    constexpr std::size_t kNameChars = 253; // a DNS subdomain name, as long as names get
    return escapedText(name, kNameChars);
}

// The context names for a message: all of them when there are few, else how many there are
// and the few closest to `wanted` (a kubeconfig may hold thousands: one per cluster of a fleet).
// Each name escaped (named()).
std::string contextsText(const std::vector<std::string>& rawNames, const std::string& wanted)
{
    std::vector<std::string> names;
    names.reserve(rawNames.size());
    for (const std::string& n : rawNames)
        names.push_back(named(n));
    constexpr std::size_t kAll = 8, kClosest = 5;
    if (names.size() <= kAll)
        return "contexts: " + joined(names);
    std::vector<std::pair<std::size_t, const std::string*>> ranked;
    ranked.reserve(names.size());
    for (const std::string& n : names)
        ranked.emplace_back(wanted.empty() ? 0 : editDistance(wanted, n), &n);
    std::partial_sort(ranked.begin(), ranked.begin() + kClosest, ranked.end(),
        [](const auto& x, const auto& y) { return x.first != y.first ? x.first < y.first : *x.second < *y.second; });
    std::vector<std::string> closest;
    for (std::size_t i = 0; i < kClosest; ++i)
        closest.push_back(*ranked[i].second);
    return std::to_string(names.size()) + " contexts; " + (wanted.empty() ? "the first: " : "the closest: ") + joined(closest)
        + "; list them all with kubectl config get-contexts";
}

ExecConfig readExec(const std::string& file, const YAML::Node& e, const std::string& path)
{
    ExecConfig exec;
    exec.apiVersion = str(file, e, "apiVersion", path);
    exec.command = str(file, e, "command", path);
    if (exec.command.empty())
        fail(file, e, path + ".command", "missing (an exec plugin needs a command)");
    if (exec.command.find('/') != std::string::npos)
        exec.command = resolvePath(exec.command, file); // loader.go: only a command with a separator
    YAML::Node args = e["args"];
    if (args.IsDefined() && !args.IsNull()) {
        if (!args.IsSequence())
            fail(file, args, path + ".args", "expected a list of strings");
        for (std::size_t i = 0; i < args.size(); ++i) {
            if (!args[i].IsScalar())
                fail(file, args[i], path + ".args[" + std::to_string(i) + "]", "expected a string");
            exec.args.push_back(args[i].Scalar());
        }
    }
    YAML::Node env = e["env"];
    if (env.IsDefined() && !env.IsNull()) {
        if (!env.IsSequence())
            fail(file, env, path + ".env", "expected a list of {name, value}");
        for (std::size_t i = 0; i < env.size(); ++i) {
            const std::string at = path + ".env[" + std::to_string(i) + "]";
            if (!env[i].IsMap())
                fail(file, env[i], at, "expected {name, value}");
            exec.env.emplace_back(str(file, env[i], "name", at), str(file, env[i], "value", at));
        }
    }
    exec.installHint = str(file, e, "installHint", path);
    exec.provideClusterInfo = boolean(file, e, "provideClusterInfo", path);
    exec.interactiveMode = str(file, e, "interactiveMode", path);
    if (exec.interactiveMode.empty() && (exec.apiVersion == "client.authentication.k8s.io/v1beta1" ||
                                         exec.apiVersion == "client.authentication.k8s.io/v1alpha1"))
        exec.interactiveMode = "IfAvailable"; // clientcmd/api/v1/defaults.go
    if (!exec.interactiveMode.empty() && exec.interactiveMode != "Never" && exec.interactiveMode != "IfAvailable" &&
        exec.interactiveMode != "Always")
        fail(file, e["interactiveMode"], path + ".interactiveMode",
             "\"" + exec.interactiveMode + "\" is not one of Never, IfAvailable, Always");
    return exec;
}

} // namespace

std::string requestTimeoutSetting(KubeconfigInput input)
{
    return input == KubeconfigInput::WindowDialog ? std::string() : std::string("; --request-timeout sets it");
}

KubeconfigRequest KubeconfigRequest::fromEnvironment(std::string explicitPath, std::string context)
{
    KubeconfigRequest r;
    r.explicitPath = std::move(explicitPath);
    r.context = std::move(context);
    if (const char* env = std::getenv("KUBECONFIG"))
        r.kubeconfigEnv = env;
    if (const char* home = std::getenv("HOME"))
        r.homeDir = home;
    return r;
}

std::pair<std::vector<std::string>, std::string> listKubeconfigContexts(const KubeconfigRequest& request)
{
    Merged merged = readAll(request);
    std::vector<std::string> names;
    for (const auto& [name, entry] : merged.contexts)
        names.push_back(name);
    return {names, merged.currentContext};
}

ResolvedKubeconfig loadKubeconfig(const KubeconfigRequest& request)
{
    Merged merged = readAll(request);
    ResolvedKubeconfig out;
    out.requestTimeout = request.requestTimeout;
    out.input = request.input;
    out.files = merged.files;
    for (const auto& [name, entry] : merged.contexts)
        out.contexts.push_back(name);
    out.currentContext = merged.currentContext;
    const std::string where = merged.files.empty() ? std::string("no kubeconfig file found") : joined(merged.files);
    const std::string source = merged.files.empty() ? std::string("kubeconfig") : merged.files.front();

    out.contextName = request.context.empty() ? merged.currentContext : request.context;
    if (out.contextName.empty())
        throw KubeconfigError(source, 0, {},
                              "no context: current-context is not set (read: " + where +
                                  (request.input == KubeconfigInput::WindowDialog ? "); name one in the Context field ("
                                                                                   : "); pass --context NAME (")
                                  + contextsText(out.contexts, {}) + ")");
    auto ctx = merged.contexts.find(out.contextName);
    if (ctx == merged.contexts.end())
        throw KubeconfigError(source, 0, {},
                              "context \"" + named(out.contextName) + "\" does not exist (read: " + where +
                                  "; " + contextsText(out.contexts, out.contextName) + ")");
    const std::string ctxFile = merged.originOf["context:" + out.contextName];
    const YAML::Node& c = ctx->second.body;
    const std::string clusterName = str(ctxFile, c, "cluster", ctx->second.path);
    const std::string userName = str(ctxFile, c, "user", ctx->second.path);
    out.namespaceName = str(ctxFile, c, "namespace", ctx->second.path);

    auto cl = merged.clusters.find(clusterName);
    if (clusterName.empty() || cl == merged.clusters.end())
        fail(ctxFile, c, ctx->second.path + ".cluster",
             clusterName.empty() ? "context \"" + named(out.contextName) + "\" names no cluster"
                                 : "cluster \"" + named(clusterName) + "\" of context \"" + named(out.contextName) + "\" does not exist");
    {
        const std::string file = merged.originOf["cluster:" + clusterName];
        const YAML::Node& b = cl->second.body;
        const std::string& p = cl->second.path;
        KubeconfigCluster& k = out.cluster;
        k.name = clusterName;
        k.origin = file;
        k.server = str(file, b, "server", p);
        if (k.server.empty())
            fail(file, b, p + ".server", "cluster \"" + named(clusterName) + "\" has no server");
        k.certificateAuthority = resolvePath(str(file, b, "certificate-authority", p), file);
        k.certificateAuthorityData = data(file, b, "certificate-authority-data", p);
        k.tlsServerName = str(file, b, "tls-server-name", p);
        k.proxyUrl = str(file, b, "proxy-url", p);
        k.insecureSkipTlsVerify = boolean(file, b, "insecure-skip-tls-verify", p);
        k.disableCompression = boolean(file, b, "disable-compression", p);
    }
    if (!userName.empty()) {
        auto us = merged.users.find(userName);
        if (us == merged.users.end())
            fail(ctxFile, c, ctx->second.path + ".user",
                 "user \"" + named(userName) + "\" of context \"" + named(out.contextName) + "\" does not exist");
        const std::string file = merged.originOf["user:" + userName];
        const YAML::Node& b = us->second.body;
        const std::string& p = us->second.path;
        KubeconfigUser& u = out.user;
        u.name = userName;
        u.origin = file;
        u.token = str(file, b, "token", p);
        u.tokenFile = resolvePath(str(file, b, "tokenFile", p), file);
        u.clientCertificate = resolvePath(str(file, b, "client-certificate", p), file);
        u.clientCertificateData = data(file, b, "client-certificate-data", p);
        u.clientKey = resolvePath(str(file, b, "client-key", p), file);
        u.clientKeyData = data(file, b, "client-key-data", p);
        u.username = str(file, b, "username", p);
        u.password = str(file, b, "password", p);
        YAML::Node e = b["exec"];
        if (e.IsDefined() && !e.IsNull()) {
            if (!e.IsMap())
                fail(file, e, p + ".exec", "expected a mapping, found " + typeName(e));
            u.exec = readExec(file, e, p + ".exec");
        }
        YAML::Node provider = b["auth-provider"];
        if (provider.IsDefined() && !provider.IsNull())
            fail(file, provider, p + ".auth-provider",
                 "auth-provider plugins (removed from kubectl in 1.26) are not supported; use an exec plugin");
    }
    return out;
}

} // namespace fleet::importers::kube
