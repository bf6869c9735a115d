// SPDX-License-Identifier: Apache-2.0
// The source a plan names (plansource.h): the input files' digests, a live cluster, a
// simulation; written in the plan's "source" object, and compared with the state a plan is
// checked against.
#include "plansource.h"

#include "jsontext.h"

#include "importers/quotedtext.h"

#include <QCryptographicHash>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fcntl.h>
#include <unistd.h>

namespace fleet::importers {

std::string fileSha256(const std::string& path)
{
    // POSIX, not QFile: the path is bytes (a name that is not UTF-8 would not survive a QString).
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0)
        throw PlanFileError(path + ": cannot read: " + std::strerror(errno));
    QCryptographicHash hash(QCryptographicHash::Sha256);
    std::vector<char> buffer(std::size_t { 1 } << 20);
    for (;;) {
        const ssize_t n = ::read(fd, buffer.data(), buffer.size());
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            const int error = errno;
            ::close(fd);
            throw PlanFileError(path + ": cannot read: " + std::strerror(error));
        }
        if (n == 0)
            break;
        hash.addData(QByteArrayView(buffer.data(), n));
    }
    ::close(fd);
    return hash.result().toHex().toStdString();
}

PlanSource sourceOfFiles(const std::vector<std::string>& paths)
{
    PlanSource s;
    for (const std::string& p : paths)
        s.files.push_back({ p, fileSha256(p) });
    return s;
}

PlanSource sourceOfSimulation(std::size_t nodes, std::uint64_t seed, std::size_t regions)
{
    PlanSource s;
    s.simulated = "nodes=" + std::to_string(nodes) + " seed=" + std::to_string(seed) + " regions=" + std::to_string(regions);
    return s;
}

void writePlanSource(JsonWriter& w, const PlanSource& source)
{
    w.beginObject();
    if (!source.files.empty()) {
        w.key("files").beginArray();
        for (const PlanSource::File& f : source.files) {
            w.beginObject();
            w.key("name").value(f.name);
            w.key("sha256").value(f.sha256);
            w.endObject();
        }
        w.endArray();
    }
    if (!source.server.empty())
        w.key("server").value(source.server);
    if (!source.resourceVersion.empty())
        w.key("resourceVersion").value(source.resourceVersion);
    if (!source.simulated.empty())
        w.key("simulated").value(source.simulated);
    w.endObject();
}

PlanSource sourceOfLiveCluster(const std::string& server, const std::string& resourceVersion)
{
    PlanSource s;
    s.server = server;
    s.resourceVersion = resourceVersion;
    return s;
}

namespace {

// A file as a note names it: its whole path when that is short; a long one from its folder on
// ("\u2026/csv/openb_pod_list_cpu050.csv"), never cut inside the file name, so that two files of one
// folder never read alike. Bounded: the name comes from a plan file.
std::string fileText(const std::string& path)
{
    constexpr std::size_t kWholePath = 160;
    if (path.size() <= kWholePath)
        return escapedText(path, kWholePath);
    const std::filesystem::path p(path);
    return "\u2026/" + escapedText(p.parent_path().filename().string() + "/" + p.filename().string(), 2 * kWholePath);
}

} // namespace

std::string sourceText(const PlanSource& source)
{
    std::string out;
    for (const PlanSource::File& f : source.files)
        out += (out.empty() ? "" : ", ") + fileText(f.name) + " (sha256 " + escapedText(f.sha256.substr(0, 12)) + ")";
    if (!source.server.empty())
        out += (out.empty() ? "" : ", ") + std::string("live cluster ") + escapedText(source.server)
            + (source.resourceVersion.empty() ? std::string() : " at resourceVersion " + escapedText(source.resourceVersion));
    if (!source.simulated.empty())
        out += (out.empty() ? "" : ", ") + std::string("simulated cluster ") + escapedText(source.simulated);
    return out.empty() ? "an unnamed source" : out;
}

namespace {

std::string baseName(const std::string& path)
{
    return std::filesystem::path(path).filename().string();
}

// What differs between the plan's files and those given now, each said for what it is: a file of
// the same name given with other bytes is changed; one not given is not given, or missing when no
// file of that name is there any more; one given that the plan did not name is given instead.
// Files are matched by digest first (a file moved is the same), then by file name.
// " (changed: a.json; not given: b.csv; given instead: c.csv)"; "" when nothing differs.
std::string fileDifferenceText(const PlanSource& planned, const PlanSource& current)
{
    std::vector<std::uint8_t> used(current.files.size(), 0);
    auto sameDigest = [&](const PlanSource::File& f) {
        for (std::size_t i = 0; i < current.files.size(); ++i)
            if (current.files[i].sha256 == f.sha256) {
                used[i] = 1;
                return true;
            }
        return false;
    };
    std::vector<const PlanSource::File*> unmatched;
    for (const PlanSource::File& f : planned.files)
        if (!sameDigest(f))
            unmatched.push_back(&f);
    std::string changed, notGiven, missing, instead;
    auto add = [](std::string& list, const std::string& name) { list += (list.empty() ? "" : ", ") + fileText(name); };
    for (const PlanSource::File* f : unmatched) {
        bool found = false;
        for (std::size_t i = 0; i < current.files.size() && !found; ++i)
            if (!used[i] && baseName(current.files[i].name) == baseName(f->name)) {
                used[i] = 1;
                found = true;
            }
        if (found)
            add(changed, f->name);
        else if (std::error_code e; std::filesystem::exists(f->name, e))
            add(notGiven, f->name);
        else
            add(missing, f->name);
    }
    for (std::size_t i = 0; i < current.files.size(); ++i)
        if (!used[i])
            add(instead, current.files[i].name);
    std::vector<std::string> parts;
    if (!changed.empty())
        parts.push_back("changed since the plan was made: " + changed);
    if (!notGiven.empty())
        parts.push_back("not given: " + notGiven);
    if (!missing.empty())
        parts.push_back("missing (no such file here): " + missing);
    if (!instead.empty() && !unmatched.empty())
        parts.push_back("given instead: " + instead);
    std::string out;
    for (const std::string& part : parts)
        out += (out.empty() ? " (" : "; ") + part;
    return out.empty() ? out : out + ")";
}

} // namespace

std::string sourceDifference(const PlanSource& planned, const PlanSource& current)
{
    const bool names = !planned.files.empty() || !planned.server.empty() || !planned.simulated.empty();
    if (!names)
        return {};
    bool same = planned.server == current.server && planned.simulated == current.simulated
        && planned.resourceVersion == current.resourceVersion && planned.files.empty() == current.files.empty();
    for (const PlanSource::File& f : planned.files) {
        bool found = false;
        for (const PlanSource::File& c : current.files)
            found = found || c.sha256 == f.sha256;
        same = same && found;
    }
    if (same)
        return {};
    std::string why = "the plan was made on " + sourceText(planned) + ", checked against " + sourceText(current);
    if (!planned.server.empty() && planned.server == current.server)
        why += " (a newer or older list of the same cluster)";
    else if (!planned.files.empty() && !current.files.empty())
        why += fileDifferenceText(planned, current);
    return why;
}

std::string clusterDifference(const PlanSource& planned, const PlanSource& current)
{
    if (planned.files.empty() && planned.server.empty() && planned.simulated.empty())
        return "the plan names no source, so it cannot be shown to be made on " + sourceText(current);
    if (!planned.server.empty() && planned.server == current.server)
        return {};
    return sourceDifference(planned, current);
}

std::vector<std::string> changedSourceFiles(const PlanSource& planned, const PlanSource& current)
{
    std::vector<std::string> changed;
    for (const PlanSource::File& f : planned.files) {
        bool same = false;
        for (const PlanSource::File& c : current.files)
            same = same || c.sha256 == f.sha256;
        if (!same)
            changed.push_back(f.name);
    }
    return changed;
}

} // namespace fleet::importers
