// SPDX-License-Identifier: Apache-2.0
#include "importers/kube/kubeendpoint_p.h"

#include "importers/kube/kubeapiclient.h"
#include "importers/kube/kubecredentials_p.h"
#include "importers/kube/secrets.h"

#include <QByteArray>

#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/x509.h>

#include <filesystem>

namespace fleet::importers::kube {

namespace {

[[noreturn]] void fail(const std::string& server, const std::string& message) { throw KubeApiError(server, {}, 0, message); }

// How many X.509 certificates a PEM text holds (OpenSSL's reader; what is not a certificate block
// is skipped, as add_certificate_authority() skips it).
int pemCertificateCount(const std::string& pem)
{
    BIO* bio = BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size()));
    if (!bio)
        return 0;
    int count = 0;
    while (X509* cert = PEM_read_bio_X509(bio, nullptr, nullptr, nullptr)) {
        X509_free(cert);
        ++count;
    }
    BIO_free(bio);
    ERR_clear_error(); // the end of the text is reported as an error
    return count;
}

} // namespace

KubeServerAddress parseServerAddress(const KubeconfigCluster& cluster, const std::string& server)
{
    KubeServerAddress a;
    std::string s = cluster.server;
    // Checked before anything else, and said without the URL's secrets: a space or control
    // byte would reach the Host header; a password would be printed and handed to the name
    // resolver as part of the host; a query is not part of an API server's address.
    for (const char c : s)
        if (static_cast<unsigned char>(c) <= 0x20 || c == 0x7f)
            fail(server, "the server URL " + redactedUrl(s) + " holds a space or control character");
    if (const auto scheme = s.find("://"); scheme != std::string::npos
        && s.substr(scheme + 3, s.find_first_of("/?#", scheme + 3) - (scheme + 3)).find('@') != std::string::npos)
        fail(server,
            "the server URL " + redactedUrl(s)
                + " holds a user name or password (user:password@ before the host), "
                  "which is refused: give the credentials as the user's token, tokenFile, client certificate or exec plugin");
    if (s.find_first_of("?#") != std::string::npos)
        fail(server,
            "the server URL " + redactedUrl(s)
                + " has a query or fragment (?... or #...), which is refused: an API "
                  "server's URL is https://HOST[:PORT][/PATH]");
    if (s.starts_with("https://"))
        s.erase(0, 8);
    else if (s.starts_with("http://")) {
        s.erase(0, 7);
        a.tls = false;
    } else
        fail(server, "server " + redactedUrl(s) + " is not an http:// or https:// URL");
    const auto slash = s.find('/');
    std::string authority = s.substr(0, slash);
    if (slash != std::string::npos) {
        a.basePath = s.substr(slash);
        while (!a.basePath.empty() && a.basePath.back() == '/')
            a.basePath.pop_back();
    }
    if (authority.starts_with('[')) { // [IPv6]:port
        const auto close = authority.find(']');
        if (close == std::string::npos)
            fail(server, "server URL has an unclosed [ in its host");
        a.host = authority.substr(1, close - 1);
        if (close + 1 < authority.size() && authority[close + 1] == ':')
            a.port = authority.substr(close + 2);
    } else {
        const auto colon = authority.rfind(':');
        a.host = authority.substr(0, colon);
        if (colon != std::string::npos)
            a.port = authority.substr(colon + 1);
    }
    if (a.host.empty())
        fail(server, "server URL has no host");
    if (a.port.empty())
        a.port = a.tls ? "443" : "80";
    return a;
}

KubeProxy parseProxy(const KubeconfigCluster& cluster, const std::string& server)
{
    KubeProxy p;
    if (cluster.proxyUrl.empty())
        return p;
    std::string s = cluster.proxyUrl;
    if (!s.starts_with("http://"))
        fail(server,
            "cluster \"" + cluster.name + "\" sets proxy-url " + redactedUrl(s)
                + ": only http:// proxies (HTTP CONNECT) are supported, not https:// or socks5://");
    s.erase(0, 7);
    s = s.substr(0, s.find('/'));
    if (const auto at = s.rfind('@'); at != std::string::npos) {
        p.authorization = "Basic " + QByteArray::fromStdString(s.substr(0, at)).toBase64().toStdString();
        s.erase(0, at + 1);
    }
    const auto colon = s.rfind(':');
    p.host = s.substr(0, colon);
    p.port = colon == std::string::npos ? "80" : s.substr(colon + 1);
    if (p.host.empty())
        fail(server, "cluster \"" + cluster.name + "\" sets a proxy-url without a host");
    return p;
}

std::string readClusterCa(const KubeconfigCluster& c, const std::string& server)
{
    const bool namedCa = !c.certificateAuthorityData.empty() || !c.certificateAuthority.empty();
    // client-go's transport.TLSConfigFor refuses the pair, and so does kubectl.
    if (c.insecureSkipTlsVerify && namedCa)
        fail(server,
            "cluster \"" + c.name + "\" sets insecure-skip-tls-verify together with a certificate-authority"
                + std::string(c.certificateAuthorityData.empty() ? "" : "-data")
                + ": specifying a root certificates file with the insecure flag is not allowed (as kubectl); keep one of the "
                  "two");
    std::error_code fsError;
    if (c.certificateAuthorityData.empty() && !c.certificateAuthority.empty()
        && std::filesystem::is_directory(c.certificateAuthority, fsError))
        fail(server,
            "the certificate-authority " + c.certificateAuthority + " of cluster \"" + c.name
                + "\" is a folder, not a PEM file of CA certificates");
    std::string caPem = !c.certificateAuthorityData.empty() ? c.certificateAuthorityData
        : !c.certificateAuthority.empty()                    ? readKubeconfigFile(server, c.certificateAuthority, "certificate-authority")
                                                             : std::string();
    // A CA that is named but holds no certificate must never fall back to the system's CAs:
    // that would trust every public CA in place of the cluster's own.
    if (namedCa && pemCertificateCount(caPem) == 0)
        fail(server,
            (c.certificateAuthorityData.empty() ? "the certificate-authority " + c.certificateAuthority
                                                : std::string("the certificate-authority-data"))
                + " of cluster \"" + c.name + "\" holds no PEM certificate"
                + (caPem.empty() ? " (it is empty)" : " (no -----BEGIN CERTIFICATE----- block OpenSSL can read)"));
    return caPem;
}

} // namespace fleet::importers::kube
