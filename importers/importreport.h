// SPDX-License-Identifier: Apache-2.0
#pragma once
// What an import tells the user besides the cluster: warnings, and the error that stopped it.

#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace fleet::importers {

/// A failed import. what() names the file, the place (line, or JSON path) and what was
/// expected, on one line (an error that lists several bad values adds one line each), e.g. "pods.json:1201: items[3].spec.containers[0].resources.requests.cpu:
/// invalid quantity \"2GB\": ...". `file`, `line` (0 when unknown) and `path` are also kept apart.
class ImportError : public std::runtime_error {
public:
    /// what() becomes "file:line: path: message"; ":line" is left out when `line` is 0 and
    /// "path: " when `path` is empty. In what(), `file` and `path` are escaped as one line and
    /// `message` line by line (importers/terminaltext.h): no control byte but its line breaks.
    ImportError(std::string file, std::size_t line, std::string path, const std::string& message);
    /// The file (or source name) the error is in.
    const std::string& file() const noexcept { return m_file; }
    /// The 1-based line, or 0 when unknown or not line-based.
    std::size_t line() const noexcept { return m_line; }
    /// The place inside the line: a JSON path ("items[3].spec.nodeName") or a CSV column
    /// ("column 3 (memory_mib)"); may be empty.
    const std::string& path() const noexcept { return m_path; }
    /// The message without the location prefix.
    const std::string& message() const noexcept { return m_message; }

private:
    std::string m_file;
    std::size_t m_line;
    std::string m_path;
    std::string m_message;
};

/// Warnings collected while importing (kept going past them), shown to the user, and what
/// was read: counts of nodes and pods, and bytes of input. Thread: filled by the importing
/// thread; read once the import returned.
struct ImportReport {
    std::vector<std::string> warnings;
    std::size_t nodesRead = 0;
    std::size_t podsRead = 0;
    std::size_t bytesRead = 0;
    /// Adds one warning (one line of text, naming the file and place where it can). The text
    /// is kept as terminalLine() (importers/terminaltext.h) makes it: names from the input it
    /// embeds reach the terminal, the window and the JSON summary with every control byte
    /// (newlines too) escaped as \xNN, so none can drive a terminal or forge another line.
    void warn(std::string_view text);
};

/// Progress and cancellation for long imports (plain interface; app/ adapts it to Qt).
/// progress() may be called from the worker thread; keep it cheap. Importers call it
/// through ProgressThrottle (progressthrottle.h), which keeps to the rate below.
class ImportProgress {
public:
    virtual ~ImportProgress() = default;
    /// `done` and `total` in bytes (or items); called at most about ten times a second.
    virtual void progress(std::size_t done, std::size_t total) = 0;
    /// Polled in inner loops; return true to stop with ImportCancelled.
    virtual bool isCancelled() const = 0;
};

/// Thrown when ImportProgress::isCancelled() returned true. Nothing was imported.
/// what() is "import cancelled".
class ImportCancelled : public std::runtime_error {
public:
    ImportCancelled() : std::runtime_error("import cancelled") {}
};

} // namespace fleet::importers
