// SPDX-License-Identifier: Apache-2.0
#include "outputfile.h"
#include "documentheader.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <random>
#include <system_error>
#include <vector>

#include <fcntl.h>
#include <sys/file.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

namespace fleet::importers {

namespace {

// The file an output path names, once symbolic links are followed.
struct Target {
    std::string writePath; // where the bytes go: `path`, or the regular file a link points to
    bool exists = false;
    struct stat st { };
};

std::string errnoMessage(int errorNumber)
{
    return std::error_code(errorNumber, std::generic_category()).message();
}

std::string folderOf(const std::string& path)
{
    const std::filesystem::path parent = std::filesystem::path(path).parent_path();
    return parent.empty() ? std::string(".") : parent.string();
}

const char* kindOf(mode_t mode)
{
    if (S_ISDIR(mode))
        return "a folder";
    if (S_ISCHR(mode))
        return "a character device";
    if (S_ISBLK(mode))
        return "a block device";
    if (S_ISFIFO(mode))
        return "a FIFO (named pipe)";
    if (S_ISSOCK(mode))
        return "a socket";
    return "not a regular file";
}

[[noreturn]] void refuse(const std::string& path, const std::string& why)
{
    throw OutputFileError(path + ": cannot write: " + why);
}

Target resolveTarget(const std::string& path, const OutputFileOptions& options)
{
    if (path.empty())
        throw OutputFileError("cannot write: no output file named (an empty path)");
    Target t;
    t.writePath = path;
    struct stat link { };
    if (::lstat(path.c_str(), &link) != 0) {
        const int e = errno;
        if (e == ENOENT || e == ENOTDIR)
            return t; // a new file; checkFolder() says what is wrong with its folder
        refuse(path, writeErrorText(e));
    }
    if (::stat(path.c_str(), &t.st) != 0) {
        const int e = errno;
        if (e == ENOENT)
            refuse(path, "it is a symbolic link to a file that does not exist");
        refuse(path, writeErrorText(e));
    }
    if (!S_ISREG(t.st.st_mode)) {
        // Renaming over it would replace the device node, the pipe or the folder with a file.
        refuse(path,
            std::string("it is ") + kindOf(t.st.st_mode) + ", not a regular file; give the name of a file"
                + (options.allowStandardOutput ? " (or - for standard output)" : ""));
    }
    t.exists = true;
    if (S_ISLNK(link.st_mode)) {
        // The link stays; the file it points to is replaced within its own folder.
        std::error_code ec;
        const std::filesystem::path real = std::filesystem::canonical(path, ec);
        if (ec)
            refuse(path, "cannot follow the symbolic link: " + ec.message());
        t.writePath = real.string();
    }
    return t;
}

void checkNotAnInput(const std::string& path, const Target& t, const OutputFileOptions& options)
{
    if (!t.exists)
        return; // a file that does not exist yet is no input
    for (const std::string& input : options.inputs) {
        struct stat st { };
        if (input.empty() || ::stat(input.c_str(), &st) != 0)
            continue;
        if (st.st_dev == t.st.st_dev && st.st_ino == t.st.st_ino)
            refuse(path, "it is the same file as the input " + input + ", which writing would destroy; give another output file");
    }
}

void checkNotADocument(const std::string& path, const Target& t, const OutputFileOptions& options)
{
    // A .fleet keeps a cluster with its plans and notes: only a document replaces it.
    if (t.exists && !options.replacesDocument && isFleetDocumentFile(t.writePath))
        refuse(path, "it is a Fleetscope document (a saved cluster with its plans), which writing this output over it would lose; "
                     "give another file name (fleetscope save writes documents)");
}

void checkFolder(const std::string& path, const Target& t)
{
    const std::string folder = folderOf(t.writePath);
    struct stat st { };
    if (::stat(folder.c_str(), &st) != 0) {
        const int e = errno;
        if (e == ENOENT || e == ENOTDIR)
            refuse(path, "the folder " + folder + " does not exist");
        refuse(path, "the folder " + folder + ": " + writeErrorText(e));
    }
    if (!S_ISDIR(st.st_mode))
        refuse(path, folder + " is not a folder");
    if (::access(folder.c_str(), W_OK | X_OK) != 0) {
        const int e = errno;
        // Refused before anything is written: a file already there is as it was.
        refuse(path, "the folder " + folder + " is not writable: " + writeErrorText(e)
                + (::access(t.writePath.c_str(), F_OK) == 0 ? "; the previous file is unchanged" : ""));
    }
}

// A file the user write-protected is not replaced: the rename beside it would go through (it
// needs only the folder's write permission) and hand the file to whoever saved. Protected: we
// may not write it (access()), or no one may by its mode (chmod a-w; root's access() ignores
// the mode bits, an editor's "read-only file" does not).
void checkNotWriteProtected(const std::string& path, const Target& t)
{
    if (!t.exists)
        return;
    const bool noWriteBit = (t.st.st_mode & (S_IWUSR | S_IWGRP | S_IWOTH)) == 0;
    if (!noWriteBit && ::access(t.writePath.c_str(), W_OK) == 0)
        return;
    if (!noWriteBit && errno == EROFS)
        return; // the file system, not the file: checkFolder() and the write say so
    char mode[8];
    std::snprintf(mode, sizeof mode, "%04o", static_cast<unsigned>(t.st.st_mode & 07777));
    refuse(path, std::string("it is write-protected (mode ") + mode
            + "); make it writable (chmod u+w) to replace it, or name another file; the previous file is unchanged");
}

void writeAll(int fd, std::string_view bytes, int& errorNumber)
{
    const char* p = bytes.data();
    std::size_t left = bytes.size();
    while (left > 0) {
        const std::size_t chunk = left < (std::size_t { 1 } << 30) ? left : (std::size_t { 1 } << 30);
        const ssize_t n = ::write(fd, p, chunk);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            if (errno == EAGAIN || errno == EWOULDBLOCK) { // a non-blocking standard output
                pollfd pfd { fd, POLLOUT, 0 };
                (void)::poll(&pfd, 1, -1);
                continue;
            }
            errorNumber = errno;
            return;
        }
        if (n == 0) {
            errorNumber = EIO;
            return;
        }
        p += n;
        left -= static_cast<std::size_t>(n);
    }
    errorNumber = 0;
}

void writeStandardOutput(std::string_view bytes)
{
    // Whatever the command printed before goes first.
    std::cout.flush();
    std::fflush(stdout);
    int e = 0;
    writeAll(STDOUT_FILENO, bytes, e);
    if (e != 0)
        throw OutputFileError("cannot write to standard output: " + writeErrorText(e));
}

// Removes the temporary files a writer of the same target left when it was killed (SIGKILL,
// a power cut): ".NAME.XXXXXXXX.tmp" beside it, a regular file of ours. A writer holds an
// exclusive flock on its temporary file from its creation to after the rename (the kernel drops
// it when the process ends, however it ends), so a file whose lock can be taken has no writer.
// A file changed in the last kStaleTemporaryAge is kept all the same: a writer between creating
// it and taking the lock, or one of a version before the lock. Best effort: a file that cannot
// be removed stays, silently (the write itself does not depend on it).
constexpr auto kStaleTemporaryAge = std::chrono::seconds(10);

void removeStaleTemporaries(const std::string& writePath)
{
    namespace fs = std::filesystem;
    const std::string prefix = "." + fs::path(writePath).filename().string() + ".";
    const std::string folder = folderOf(writePath);
    std::vector<std::string> stale;
    std::error_code ec;
    for (fs::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec)) {
        const std::string name = it->path().filename().string();
        if (name.size() != prefix.size() + 8 + 4 || !name.starts_with(prefix) || !name.ends_with(".tmp"))
            continue;
        if (name.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789", prefix.size()) != prefix.size() + 8)
            continue;
        stale.push_back(folder + "/" + name);
    }
    for (const std::string& path : stale) {
        const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
        if (fd < 0)
            continue;
        struct stat st { };
        if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_uid == ::geteuid() && st.st_nlink == 1
            && std::chrono::system_clock::now() - std::chrono::system_clock::from_time_t(st.st_mtime) > kStaleTemporaryAge
            && ::flock(fd, LOCK_EX | LOCK_NB) == 0)
            ::unlink(path.c_str()); // under the lock: no writer can take the file meanwhile
        ::close(fd); // drops the lock
    }
}

// A new name beside the target, hidden, that no one else holds (O_EXCL), locked (flock) for as
// long as the returned descriptor, or a dup() of it, is open: the mark of a live writer.
int createTemporary(const std::string& writePath, mode_t mode, std::string& temporary)
{
    static constexpr char kLetters[] = "abcdefghijklmnopqrstuvwxyz0123456789";
    std::random_device device;
    std::mt19937 random(device());
    std::uniform_int_distribution<int> letter(0, static_cast<int>(sizeof kLetters) - 2);
    const std::filesystem::path target(writePath);
    const std::string folder = folderOf(writePath);
    for (int attempt = 0; attempt < 100; ++attempt) {
        std::string suffix;
        for (int i = 0; i < 8; ++i)
            suffix += kLetters[letter(random)];
        temporary = folder + "/." + target.filename().string() + "." + suffix + ".tmp";
        const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
        if (fd >= 0) {
            (void)::flock(fd, LOCK_EX | LOCK_NB); // a new file: no one else holds it
            return fd;
        }
        if (errno != EEXIST)
            return fd;
    }
    errno = EEXIST;
    return -1;
}

} // namespace

std::string writeErrorText(int errorNumber)
{
    const std::string text = errnoMessage(errorNumber);
    // The words, then the system's text when it says more ("permission denied (Operation not
    // permitted)"); the same words twice read as a stutter ("permission denied (Permission denied)").
    auto said = [&text](const std::string& words) {
        std::string lower = text;
        std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
        return lower == words ? words : words + " (" + text + ")";
    };
    switch (errorNumber) {
    case ENOSPC:
        return said("disk full");
    case EDQUOT:
        return said("disk quota exceeded");
    case EFBIG:
        return said("file too large");
    case EROFS:
        return said("read-only file system");
    case EACCES:
    case EPERM:
        return said("permission denied");
    case EIO:
        return said("input/output error");
    default:
        return text;
    }
}

bool isStandardOutput(const std::string& path, const OutputFileOptions& options) noexcept
{
    return options.allowStandardOutput && path == "-";
}

void checkOutputTarget(const std::string& path, const OutputFileOptions& options)
{
    if (isStandardOutput(path, options))
        return;
    const Target t = resolveTarget(path, options);
    checkNotAnInput(path, t, options);
    checkNotADocument(path, t, options);
    checkNotWriteProtected(path, t);
    checkFolder(path, t);
}

void writeOutputFile(const std::string& path, std::string_view bytes, const OutputFileOptions& options)
{
    if (isStandardOutput(path, options)) {
        writeStandardOutput(bytes);
        return;
    }
    // The checks again, at the moment of writing: the target may have changed since the command
    // started (a long consolidation, a screenshot's rendering).
    const Target t = resolveTarget(path, options);
    checkNotAnInput(path, t, options);
    checkNotADocument(path, t, options);
    checkNotWriteProtected(path, t);
    checkFolder(path, t);

    const std::string unchanged = t.exists ? "; the previous file is unchanged" : "; no file was written";
    auto fail = [&](const std::string& temporary, const std::string& what, int errorNumber) {
        if (!temporary.empty())
            ::unlink(temporary.c_str());
        refuse(path, what + writeErrorText(errorNumber) + unchanged);
    };

    removeStaleTemporaries(t.writePath);
    std::string temporary;
    const int fd = createTemporary(t.writePath, options.executable ? 0777 : 0666, temporary);
    if (fd < 0)
        fail({}, "cannot make a temporary file in " + folderOf(t.writePath) + ": ", errno);
    if (t.exists) {
        // Keep what the user gave the file; a script also stays executable by its owner.
        const mode_t mode = (t.st.st_mode & 07777) | (options.executable ? S_IXUSR : 0);
        if (::fchmod(fd, mode) != 0) {
            const int e = errno;
            ::close(fd);
            fail(temporary, "cannot keep the file's mode: ", e);
        }
        if (t.st.st_uid != ::geteuid() || t.st.st_gid != ::getegid())
            (void)::fchown(fd, t.st.st_uid, t.st.st_gid); // only root may give a file away: else it is ours, as any editor's
    }
    // A cancel is honoured until the rename: before it, the target is still the previous file.
    auto stopIfCancelled = [&](int open) {
        if (!options.cancelled || !options.cancelled())
            return;
        if (open >= 0)
            ::close(open);
        ::unlink(temporary.c_str());
        throw OutputCancelled(path + ": cancelled" + unchanged);
    };
    int e = 0;
    // In slices, so that a cancel does not wait for the whole write (a 100,000-node document
    // is about 70 MB).
    constexpr std::size_t kSliceBytes = std::size_t { 8 } << 20;
    std::size_t at = 0;
    do {
        stopIfCancelled(fd);
        writeAll(fd, bytes.substr(at, kSliceBytes), e);
        if (e != 0) {
            ::close(fd);
            fail(temporary, "", e);
        }
        at += kSliceBytes;
    } while (at < bytes.size());
    if (::fsync(fd) != 0) {
        e = errno;
        ::close(fd);
        fail(temporary, "", e);
    }
    stopIfCancelled(fd);
    // The lock outlives the checked close, up to the rename: a dup() shares it.
    const int lockFd = ::dup(fd);
    if (::close(fd) != 0) { // the descriptor is gone either way (Linux); never closed twice
        e = errno;
        if (lockFd >= 0)
            ::close(lockFd);
        fail(temporary, "", e);
    }
    stopIfCancelled(lockFd);
    if (::rename(temporary.c_str(), t.writePath.c_str()) != 0) {
        e = errno;
        if (lockFd >= 0)
            ::close(lockFd);
        fail(temporary, "cannot replace the file: ", e);
    }
    if (lockFd >= 0)
        ::close(lockFd);
    // The rename is durable only once the folder's entry is on disk.
    const std::string folder = folderOf(t.writePath);
    const int dir = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dir < 0)
        refuse(path, "it was written, but its folder could not be opened to sync it: " + writeErrorText(errno));
    if (::fsync(dir) != 0 && errno != EINVAL) { // EINVAL: a file system that cannot sync folders
        e = errno;
        ::close(dir);
        refuse(path, "it was written, but its folder could not be synced to disk: " + writeErrorText(e));
    }
    ::close(dir);
}

void checkDistinctOutputs(const std::vector<std::pair<std::string, std::string>>& outputs, bool allowStandardOutput)
{
    struct Identity {
        bool isFile = false;
        dev_t dev = 0;
        ino_t ino = 0;
        std::string absolute;
    };
    auto identify = [](const std::string& path) {
        Identity id;
        struct stat st { };
        if (::stat(path.c_str(), &st) == 0) {
            id.isFile = true;
            id.dev = st.st_dev;
            id.ino = st.st_ino;
        } else {
            std::error_code ec;
            id.absolute = std::filesystem::weakly_canonical(std::filesystem::absolute(path, ec), ec).string();
        }
        return id;
    };
    for (std::size_t i = 0; i < outputs.size(); ++i) {
        for (std::size_t j = i + 1; j < outputs.size(); ++j) {
            const std::string& a = outputs[i].second;
            const std::string& b = outputs[j].second;
            bool same = false;
            if (allowStandardOutput && (a == "-" || b == "-")) {
                same = a == b;
            } else {
                const Identity x = identify(a);
                const Identity y = identify(b);
                same = x.isFile == y.isFile && (x.isFile ? x.dev == y.dev && x.ino == y.ino : x.absolute == y.absolute);
            }
            if (same)
                throw OutputFileError(outputs[i].first + " and " + outputs[j].first + " name the same "
                    + (a == "-" ? "standard output" : "file (" + a + ")") + ": one would overwrite the other; give each its own");
        }
    }
}

} // namespace fleet::importers
