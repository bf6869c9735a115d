// SPDX-License-Identifier: Apache-2.0
// The one reader of option files (optionfile.h).
#include "importers/optionfile.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace fleet::importers {

namespace {

constexpr std::uint64_t kKiB = 1024;
constexpr std::uint64_t kMiB = 1024 * kKiB;

struct KindInfo {
    OptionFileKind kind;
    const char* name;
    std::uint64_t maxBytes;
};

// Each limit is far above what the kind holds in practice and far below what would hurt:
// - a bearer token: service-account and EKS tokens are 1 to 2 KB, OIDC ID tokens a few KB;
// - a PEM bundle: Debian's whole ca-certificates.crt is about 220 KB;
// - a kubeconfig: about 2 KB a context with its cluster's CA data inlined, so 16 MiB holds
//   8,000 such contexts (and far more without inlined certificates);
// - a pod template: the API server refuses a request body over 3 MB;
// - node groups and the usage config: a few lines per group or query;
// - prices: every EC2 instance type in every region and capacity type is about 6 MB;
// - a plan: a move-pod action is about 170 bytes, so 2,000,000 of them (every pod of the
//   largest cluster Fleetscope is made for) are 340 MB.
constexpr KindInfo kOptionFileKinds[] = {
    { OptionFileKind::BearerToken, "bearer token file", 64 * kKiB },
    { OptionFileKind::PemFile, "PEM file", 4 * kMiB },
    { OptionFileKind::Kubeconfig, "kubeconfig file", 16 * kMiB },
    { OptionFileKind::PodTemplate, "pod template file", 3 * kMiB },
    { OptionFileKind::NodeGroups, "node groups file", 1 * kMiB },
    { OptionFileKind::UsageConfig, "usage config file", 1 * kMiB },
    { OptionFileKind::Prices, "prices file", 64 * kMiB },
    { OptionFileKind::Plan, "plan file", 512 * kMiB },
};

const KindInfo& infoOf(OptionFileKind kind) noexcept
{
    for (const KindInfo& k : kOptionFileKinds)
        if (k.kind == kind)
            return k;
    return kOptionFileKinds[0];
}

std::string sizeText(std::uint64_t bytes)
{
    char buf[64];
    if (bytes >= kMiB)
        std::snprintf(buf, sizeof buf, "%.1f MiB", static_cast<double>(bytes) / static_cast<double>(kMiB));
    else if (bytes >= kKiB)
        std::snprintf(buf, sizeof buf, "%.1f KiB", static_cast<double>(bytes) / static_cast<double>(kKiB));
    else
        std::snprintf(buf, sizeof buf, "%llu bytes", static_cast<unsigned long long>(bytes));
    return buf;
}

// What a file that is not regular is, for "is a pipe (FIFO), not a regular file".
std::string notRegularMessage(mode_t mode)
{
    if (S_ISDIR(mode))
        return "is a folder, not a file";
    const char* what = S_ISFIFO(mode) ? "a pipe (FIFO)"
        : S_ISSOCK(mode)              ? "a socket"
        : S_ISCHR(mode)               ? "a character device"
        : S_ISBLK(mode)               ? "a block device"
                                      : "not a regular file";
    return std::string("is ") + what + ", not a regular file: only regular files are read (save the content to a file first)";
}

[[noreturn]] void failOpen(const std::string& path, int error)
{
    switch (error) {
    case ENOENT: {
        struct stat link { };
        if (::lstat(path.c_str(), &link) == 0 && S_ISLNK(link.st_mode))
            throw OptionFileError(path, "is a symbolic link to a file that does not exist", true);
        throw OptionFileError(path, "does not exist", true);
    }
    case ELOOP:
        throw OptionFileError(path, "is a symbolic link loop (too many levels of symbolic links)", false);
    case EACCES:
    case EPERM:
        throw OptionFileError(path, "cannot be read: permission denied", false);
    case ENOTDIR:
        throw OptionFileError(path, "cannot be read: a part of the path before the file name is not a folder", false);
    case ENAMETOOLONG:
        throw OptionFileError(path, "cannot be read: the file name is too long", false);
    default: {
        // open() refuses some kinds itself (a socket: ENXIO); name the kind then.
        struct stat st { };
        if (::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode))
            throw OptionFileError(path, notRegularMessage(st.st_mode), false);
        throw OptionFileError(path, std::string("cannot be read: ") + std::strerror(error), false);
    }
    }
}

// Closes the descriptor on every way out.
struct Descriptor {
    int fd;
    ~Descriptor()
    {
        if (fd >= 0)
            ::close(fd);
    }
};

} // namespace

std::uint64_t optionFileMaxBytes(OptionFileKind kind) noexcept { return infoOf(kind).maxBytes; }

const char* optionFileKindName(OptionFileKind kind) noexcept { return infoOf(kind).name; }

std::string readOptionFile(const std::string& path, OptionFileKind kind, std::size_t spareCapacity)
{
    const KindInfo& info = infoOf(kind);
    if (path.empty())
        throw OptionFileError(path, std::string("no file name given for the ") + info.name, true);
    // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer, forever. It
    // changes nothing for a regular file, the only kind read.
    const Descriptor file { ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK) };
    if (file.fd < 0)
        failOpen(path, errno);
    struct stat st { };
    if (::fstat(file.fd, &st) != 0)
        throw OptionFileError(path, std::string("cannot be read: ") + std::strerror(errno), false);
    if (!S_ISREG(st.st_mode))
        throw OptionFileError(path, notRegularMessage(st.st_mode), false);
    const auto tooBig = [&](std::uint64_t bytes, const char* atLeast) {
        return OptionFileError(path,
            std::string("is ") + atLeast + sizeText(bytes) + ", more than a " + info.name + " may hold (" + sizeText(info.maxBytes)
                + "); is it the right file?",
            false);
    };
    const auto size = static_cast<std::uint64_t>(st.st_size);
    if (size > info.maxBytes)
        throw tooBig(size, "");
    // One read of the size fstat() gave; a file that grows meanwhile is read on up to the limit.
    std::string text;
    text.resize(static_cast<std::size_t>(size) + 1 + spareCapacity);
    std::size_t done = 0;
    for (;;) {
        if (done == text.size()) {
            if (text.size() > info.maxBytes)
                throw tooBig(text.size(), "at least ");
            text.resize(std::min<std::size_t>(text.size() * 2, static_cast<std::size_t>(info.maxBytes) + 1));
        }
        const ssize_t n = ::read(file.fd, text.data() + done, text.size() - done);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            if (errno == EISDIR)
                throw OptionFileError(path, notRegularMessage(S_IFDIR), false);
            throw OptionFileError(path, std::string("cannot be read: ") + std::strerror(errno), false);
        }
        if (n == 0)
            break;
        done += static_cast<std::size_t>(n);
    }
    if (done > info.maxBytes)
        throw tooBig(done, "");
    text.resize(done); // keeps the capacity: the spare bytes stay behind the text
    text.reserve(done + spareCapacity);
    return text;
}

} // namespace fleet::importers
