// SPDX-License-Identifier: Apache-2.0
#pragma once
// Option files: every file named by an option or a setting rather than given as the cluster
// (--plan, --prices, --node-groups, --pod-template, --kubeconfig and KUBECONFIG entries,
// --usage-config, --prometheus-token-file, --prometheus-ca, a kubeconfig's tokenFile,
// certificate-authority, client-certificate and client-key, a usage config's bearerTokenFile
// and certificateAuthority) is read by readOptionFile() and nothing else.
//
// The rules, the same for all of them:
// - only a regular file is read. The file is opened with O_NONBLOCK and checked with fstat()
//   on the open descriptor, so a FIFO (a named pipe, /dev/stdin, a process substitution)
//   never blocks and a file swapped between a check and the open is still judged by what was
//   opened; a folder, pipe, socket or device is refused by its kind;
// - each kind of file has a size limit (kOptionFileKinds below: a bearer token 64 KiB, a PEM
//   bundle 4 MiB, a kubeconfig 16 MiB, ...), checked before a byte is read, so a 2 GB file
//   given by mistake costs nothing; the file is read once, straight into the result;
// - errors name the file and say what it is: "does not exist", "is a folder, not a file",
//   "is a symbolic link loop", "is a pipe (FIFO)", "cannot be read: permission denied", ...
//
// Paths are bytes, as the kernel takes them (a file name need not be UTF-8).
//
// Thread: any (no shared state).

#include "importers/importreport.h"

#include <cstdint>
#include <string>

namespace fleet::importers {

/// What an option file holds; decides its size limit and how errors name it.
enum class OptionFileKind {
    BearerToken,  ///< --prometheus-token-file, a kubeconfig's tokenFile, a usage config's bearerTokenFile
    PemFile,      ///< --prometheus-ca, certificate-authority, client-certificate, client-key
    Kubeconfig,   ///< --kubeconfig, each KUBECONFIG entry, ~/.kube/config
    PodTemplate,  ///< --pod-template (a Pod as JSON or YAML)
    NodeGroups,   ///< --node-groups (YAML or JSON)
    UsageConfig,  ///< --usage-config (YAML)
    Prices,       ///< --prices (CSV)
    Plan,         ///< --plan and File > Open Plan (plan JSON)
};

/// The size limit of a kind of option file, in bytes.
[[nodiscard]] std::uint64_t optionFileMaxBytes(OptionFileKind kind) noexcept;
/// What a kind of file is called in messages ("bearer token file", "plan file", ...).
[[nodiscard]] const char* optionFileKindName(OptionFileKind kind) noexcept;

/// An option file that cannot be read: what() is "FILE: what is wrong" (ImportError with no
/// line and no path). missing() tells "there is no file at that path" (ENOENT, a dangling
/// symbolic link) from every other failure, for readers that skip missing files (KUBECONFIG).
class OptionFileError : public ImportError {
public:
    OptionFileError(const std::string& file, const std::string& message, bool missing)
        : ImportError(file, 0, {}, message)
        , m_missing(missing)
    {
    }
    [[nodiscard]] bool missing() const noexcept { return m_missing; }

private:
    bool m_missing;
};

/// The bytes of the regular file at `path` (bytes, not necessarily UTF-8). Throws
/// OptionFileError when `path` is empty, does not exist, is not a regular file (a folder, a
/// FIFO, a socket, a device: refused without blocking), is a symbolic link loop, cannot be
/// opened or read, or holds more than optionFileMaxBytes(kind) bytes (before reading it, or
/// when it grew past that while being read). The result's capacity() is at least its size()
/// plus `spareCapacity` (a parser's padding, such as simdjson's: the text parsed where it was
/// read, without a padded copy). Thread: any.
[[nodiscard]] std::string readOptionFile(const std::string& path, OptionFileKind kind, std::size_t spareCapacity = 0);

} // namespace fleet::importers
