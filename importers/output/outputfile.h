// SPDX-License-Identifier: Apache-2.0
#pragma once
// The one way Fleetscope writes a file the user named: plans, evaluations, CSV, kubectl scripts,
// screenshots, from the command line and from the window alike.
//
// Design note. A write must never cost the user the file that was there before, nor leave a
// file that looks complete but is cut (a kubectl script cut short can still parse as bash). So
// the bytes go to a temporary file beside the target; every write, the fsync and the close are
// checked; only when all of them succeeded is the temporary file renamed over the target, and
// the folder is synced so that the rename survives a power cut. On any failure the temporary
// file is removed and the target is left byte for byte as it was.
// A writer killed outright (SIGKILL, a power cut) leaves its temporary file: the next write of
// the same target removes those no process holds a lock on (each writer holds an exclusive flock
// on its temporary file until after the rename) and that are older than 10 s.
//
// QSaveFile is not used: in Qt 6.4 a write that the disk cuts short (ENOSPC after part of a
// buffer went out) sets no error on its file engine, so QSaveFile::commit() renames the cut
// file over the target and reports success ("Unknown error" at best). The POSIX calls below
// report every failure with its errno.
//
// What counts as a target (refused before anything is written):
// - an existing path that is not a regular file (a folder, a FIFO, a character or block device
//   such as /dev/null, a socket): renaming over it would replace the device node or the pipe;
// - the same file (device and inode, after following symbolic links) as one of the command's
//   inputs: `plan consolidate nodes.json -o nodes.json` would destroy the cluster it read;
// - an existing file the user write-protected: one we may not write, or one no one may by its
//   mode (chmod a-w, which root's own access check ignores). The rename beside it would replace
//   it all the same (it needs only the folder) and hand it to whoever wrote;
// - a missing or unwritable folder;
// - an existing Fleetscope document (documentheader.h), unless the output is a document
//   (OutputFileOptions::replacesDocument): a plan, CSV, script or image written over a .fleet
//   would lose the saved cluster with its plans.
// A symbolic link to a regular file is followed: the file it points to is replaced (in its own
// folder) and the link stays a link. A link to nothing is refused.
// "-" means standard output where a caller allows it (OutputFileOptions::allowStandardOutput);
// the writes to it are checked just the same.
//
// The mode, owner and group of an existing target are kept (a reviewed kubectl script stays
// executable); a new file gets 0666 (0777 when executable) less the umask, as any program's.
//
// Thread: any (no shared state); Linux and other POSIX systems.

#include <functional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace fleet::importers {

/// A file that could not be written, or a target refused. what() names the path and the
/// reason in words, e.g. "out/plan.json: cannot write: disk full (No space left on device); the
/// previous file is unchanged".
class OutputFileError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// A write stopped because OutputFileOptions::cancelled asked it to: the temporary file was
/// removed and nothing was renamed, so the previous file (if any) is byte for byte as it was.
/// what() names the path: "out/doc.fleet: cancelled; the previous file is unchanged".
class OutputCancelled : public OutputFileError {
public:
    using OutputFileError::OutputFileError;
};

/// How one output is written.
struct OutputFileOptions {
    /// The files the command reads (cluster files, --plan, --prices, ...): the output may not be
    /// the same file as any of them. Paths that do not exist are ignored.
    std::vector<std::string> inputs;
    /// A script: a new file is executable (0777 less the umask); an existing one keeps its mode
    /// and gains the owner's execute bit.
    bool executable = false;
    /// "-" writes to standard output (stdout is flushed first, so the order with other output
    /// holds). Otherwise "-" is a file named "-" in the current folder.
    bool allowStandardOutput = false;
    /// The output is itself a .fleet document (saveFleetDocument() sets it): it may replace an
    /// existing document. Every other output refuses one.
    bool replacesDocument = false;
    /// Polled from the writing thread between writes of at most 8 MiB, after the fsync and last
    /// just before the rename (and by saveFleetDocument() between its phases); returning true
    /// stops the write with OutputCancelled: the temporary file removed, no rename. Empty: the
    /// write cannot be cancelled. Must be safe to call from the writing thread (an atomic flag).
    std::function<bool()> cancelled;
};

/// True for the path "-" when `options` allow standard output.
[[nodiscard]] bool isStandardOutput(const std::string& path, const OutputFileOptions& options) noexcept;

/// Checks, without writing anything, that `path` can take the output: the rules of this file's
/// header (not a non-regular file, not an input, not a document unless the output is one, a
/// folder that exists and is writable). Call it
/// before long work so that a refused target is said at once. Throws OutputFileError.
void checkOutputTarget(const std::string& path, const OutputFileOptions& options = {});

/// Writes `bytes` to `path` atomically (the header's rules: checked target, temporary file in
/// the same folder, every write, fsync and close checked, rename, folder fsync). Throws
/// OutputFileError naming the path and the reason ("disk full (No space left on device)",
/// "disk quota exceeded (...)", "permission denied (...)"); then the previous file, if any, is
/// unchanged and no temporary file is left. Throws OutputCancelled when options.cancelled
/// returns true before the rename (the same guarantee).
void writeOutputFile(const std::string& path, std::string_view bytes, const OutputFileOptions& options = {});

/// Checks that two or more outputs of one command name different files (after following links;
/// paths that do not exist yet are compared as absolute paths). Throws OutputFileError naming
/// both options, e.g. "--csv and -o name the same file (out.csv)". `outputs`: option name and
/// path pairs; "-" is skipped when allowStandardOutput is set, except that two "-" are refused.
void checkDistinctOutputs(const std::vector<std::pair<std::string, std::string>>& outputs, bool allowStandardOutput = false);

/// The words for a write's errno: "disk full (No space left on device)" for ENOSPC, "disk quota
/// exceeded (...)" for EDQUOT, "file too large (...)" for EFBIG, "read-only file system (...)",
/// "permission denied (...)", "input/output error (...)", else strerror's text.
[[nodiscard]] std::string writeErrorText(int errorNumber);

} // namespace fleet::importers
