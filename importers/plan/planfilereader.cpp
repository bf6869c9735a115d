// SPDX-License-Identifier: Apache-2.0
// Plan files read: the simdjson DOM of each action, validated field by field, every error with
// its JSON path; Reader::parse() says how a large file is read in parts (simdjson On-Demand
// finds the actions and the kept entries, the DOM reads each). What is written is
// planfilewriter.cpp's. The schema is resources/schemas/plan-v1.md.
#include "planfile.h"
#include "plantextcheck.h"

#include "jsontext.h"

#include "importers/jsonerrorplace.h"
#include "importers/optionfile.h"
#include "importers/output/documentheader.h"
#include "importers/quotedtext.h"
#include "model/placement/drainpolicy.h"

#include <simdjson.h>

#include <algorithm>
#include <unordered_set>

namespace fleet::importers {

namespace {

namespace dom = simdjson::dom;

// Reads one plan file; every error is "FILE: at PATH: what".
class Reader {
public:
    /// `keepActions` false: each action is checked and dropped (checkPlanText()).
    explicit Reader(std::string file, bool keepActions = true)
        : m_file(std::move(file))
        , m_keepActions(keepActions)
    {
    }

    [[noreturn]] void fail(const std::string& path, const std::string& what) const
    {
        throw PlanFileError(m_file + ": at " + path + ": " + what);
    }

    dom::object object(dom::element e, const std::string& path, std::initializer_list<std::string_view> known) const
    {
        dom::object o;
        if (e.get_object().get(o) != simdjson::SUCCESS)
            fail(path, "expected an object");
        std::vector<std::string_view> seen;
        for (auto field : o) {
            bool ok = false;
            for (const std::string_view k : known)
                ok = ok || field.key == k;
            if (!ok)
                fail(path, "unknown field \"" + std::string(field.key) + "\"");
            duplicateCheck(seen, field.key, path);
        }
        return o;
    }
    // A strict reader: a field given twice is refused, since JSON readers differ on which one
    // they take (simdjson the first, jq and Python the last), and a reviewer must read the
    // plan that runs.
    void duplicateCheck(std::vector<std::string_view>& seen, std::string_view key, const std::string& path) const
    {
        if (std::find(seen.begin(), seen.end(), key) != seen.end())
            fail(path, "the field " + quotedText(key, 80) + " is given twice; give each field once");
        seen.push_back(key);
    }
    // The same for every object inside `e` (a pod template is a whole Pod object), depth first.
    void noDuplicateKeys(dom::element e, const std::string& path) const
    {
        if (dom::object o; e.get_object().get(o) == simdjson::SUCCESS) {
            std::unordered_set<std::string_view> seen;
            for (auto field : o) {
                if (!seen.insert(field.key).second)
                    fail(path, "the field " + quotedText(field.key, 80) + " is given twice; give each field once");
                noDuplicateKeys(field.value, path + "." + std::string(field.key));
            }
        } else if (dom::array a; e.get_array().get(a) == simdjson::SUCCESS) {
            std::size_t i = 0;
            for (dom::element item : a)
                noDuplicateKeys(item, path + "[" + std::to_string(i++) + "]");
        }
    }
    std::string string(dom::object o, std::string_view key, const std::string& path, bool required) const
    {
        dom::element e;
        if (o.at_key(key).get(e) != simdjson::SUCCESS) {
            if (required)
                fail(path, "missing field \"" + std::string(key) + "\"");
            return {};
        }
        std::string_view s;
        if (e.get_string().get(s) != simdjson::SUCCESS)
            fail(path + "." + std::string(key), "expected a string");
        return std::string(s);
    }
    std::string nonEmpty(dom::object o, std::string_view key, const std::string& path) const
    {
        std::string s = string(o, key, path, true);
        if (s.empty())
            fail(path + "." + std::string(key), "expected a non-empty string");
        return s;
    }
    bool boolean(dom::object o, std::string_view key, const std::string& path) const
    {
        dom::element e;
        if (o.at_key(key).get(e) != simdjson::SUCCESS)
            return false;
        bool b = false;
        if (e.get_bool().get(b) != simdjson::SUCCESS)
            fail(path + "." + std::string(key), "expected true or false");
        return b;
    }
    std::int64_t integer(dom::object o, std::string_view key, const std::string& path, std::int64_t fallback) const
    {
        dom::element e;
        if (o.at_key(key).get(e) != simdjson::SUCCESS)
            return fallback;
        std::int64_t v = 0;
        if (e.get_int64().get(v) != simdjson::SUCCESS)
            fail(path + "." + std::string(key), "expected an integer");
        return v;
    }

    PlanDocument read()
    {
        // A .fleet holds a cluster and its plans: read as JSON, it would only be "not valid JSON".
        if (isFleetDocumentFile(m_file))
            throw PlanFileError(m_file + ": is a Fleetscope document (a saved cluster with its plans), not a plan file: give it as "
                                         "the cluster (fleetscope plan check " + m_file + " --plan PLAN.json), or open it in the window "
                                         "(fleetscope " + m_file + ") to review the plans it keeps");
        std::string text;
        try {
            // Read with simdjson's padding behind the text, so that it is parsed where it was read.
            text = readOptionFile(m_file, OptionFileKind::Plan, simdjson::SIMDJSON_PADDING);
        } catch (const OptionFileError& e) {
            throw PlanFileError(e.what());
        }
        return parse(simdjson::padded_string_view(text));
    }

    /// Reads plan JSON `text` (padding() >= SIMDJSON_PADDING). A valid plan is read by parts
    /// (parseByParts(): memory for the text and one action); anything that part read refuses
    /// is read again whole (parseWhole(): a DOM of the whole text, 15 bytes per byte), whose
    /// error is the file's error, so that every file gets the same error, at the same place, as
    /// when every file was read whole (a syntax error late in the file comes before a wrong field
    /// early in it, the top object's fields are judged before the actions, ...).
    PlanDocument parse(simdjson::padded_string_view text)
    {
        if (std::optional<PlanDocument> plan = parseByParts(text))
            return std::move(*plan);
        return parseWhole(text);
    }

    PlanDocument parseWhole(simdjson::padded_string_view text)
    {
        m_parts = nullptr;
        dom::parser parser;
        dom::element root;
        if (const auto err = parser.parse(text.data(), text.size(), false).get(root); err != simdjson::SUCCESS)
        {
            // simdjson says what, not where: the place is Qt's parser's (jsonerrorplace.h).
            const std::string place = jsonErrorPlace(std::string_view(text.data(), text.size()));
            throw PlanFileError(m_file + ": not valid JSON " + (place.empty() ? std::string() : place + " ") + "("
                + std::string(simdjson::error_message(err)) + ")");
        }
        return planOf(root);
    }

    /// The plan of valid plan JSON `text`, read without a DOM of the whole text: simdjson's
    /// On-Demand parser (skeleton()) finds the byte range of each element of "actions" and of
    /// "consolidation"."kept"; the rest of the file, those two arrays left empty, is the
    /// skeleton, parsed whole as a small DOM; each element is parsed on its own by a small
    /// reused DOM parser and judged by the same code as in parseWhole(). Every byte of the text
    /// is checked by simdjson: the structure around the elements by On-Demand, each element
    /// and the skeleton by a DOM parse. nullopt when the text is not valid JSON or not a valid
    /// plan (then parseWhole() says why).
    std::optional<PlanDocument> parseByParts(simdjson::padded_string_view text)
    {
        Parts parts;
        std::string skeletonText;
        if (!skeleton(text, skeletonText, parts))
            return std::nullopt;
        const simdjson::padded_string skeletonPadded(skeletonText);
        dom::parser skeletonParser;
        dom::element root;
        if (skeletonParser.parse(skeletonPadded).get(root) != simdjson::SUCCESS)
            return std::nullopt;
        // The depth limit of the whole text, less the containers around each element (the top
        // object and "actions"; and "consolidation" for "kept").
        if (parts.actionParser.allocate(simdjson::dom::MINIMAL_DOCUMENT_CAPACITY, simdjson::DEFAULT_MAX_DEPTH - 2) != simdjson::SUCCESS
            || parts.keptParser.allocate(simdjson::dom::MINIMAL_DOCUMENT_CAPACITY, simdjson::DEFAULT_MAX_DEPTH - 3) != simdjson::SUCCESS)
            return std::nullopt;
        m_parts = &parts;
        try {
            PlanDocument plan = planOf(root);
            // A record of another version is not read: its entries must still be valid JSON.
            for (std::size_t i = parts.keptRead; i < parts.kept.size(); ++i)
                (void)part(parts.keptParser, parts.kept[i]);
            m_parts = nullptr;
            return plan;
        } catch (const PlanFileError&) {
        } catch (const NotByParts&) {
        }
        m_parts = nullptr;
        return std::nullopt;
    }

    PlanDocument planOf(dom::element root)
    {
        // `plan check --format json` writes an evaluation of a plan, which names the plan's file
        // in "plan" but holds no action to apply (its actions are verdicts): said for what it is.
        if (dom::object o; root.get_object().get(o) == simdjson::SUCCESS) {
            dom::element named, holds;
            std::string_view plan;
            if (o.at_key("fleetscopePlan").error() != simdjson::SUCCESS && o.at_key("plan").get(named) == simdjson::SUCCESS
                && named.get_string().get(plan) == simdjson::SUCCESS && o.at_key("holds").get(holds) == simdjson::SUCCESS)
                fail("$", "this is a plan evaluation (from plan check), not a plan; give the plan file"
                        + (plan.empty() ? std::string() : " it evaluated, " + quotedText(plan, 200)));
        }
        const dom::object top = object(root, "$", { "fleetscopePlan", "source", "actions", "consolidation" });
        dom::element version;
        if (top.at_key("fleetscopePlan").get(version) != simdjson::SUCCESS)
            fail("$", "missing field \"fleetscopePlan\" (not a Fleetscope plan file)");
        std::int64_t v = 0;
        if (version.get_int64().get(v) != simdjson::SUCCESS)
            fail("$.fleetscopePlan", "expected an integer");
        if (v != 1)
            fail("$.fleetscopePlan", "version " + std::to_string(v) + " is not supported (this Fleetscope reads version 1)");
        PlanDocument plan;
        plan.version = 1;
        if (dom::element src; top.at_key("source").get(src) == simdjson::SUCCESS)
            plan.source = source(src);
        dom::element actions;
        if (top.at_key("actions").get(actions) != simdjson::SUCCESS)
            fail("$", "missing field \"actions\"");
        dom::array list;
        if (actions.get_array().get(list) != simdjson::SUCCESS)
            fail("$.actions", "expected an array");
        // Read by parts, the skeleton's "actions" is empty and the elements are the parts (none
        // when the array was not split out: a key written with escapes is not recognized).
        const auto keep = [&](model::PlanAction&& a) {
            if (m_keepActions)
                plan.actions.push_back(std::move(a));
        };
        if (m_parts && !m_parts->actions.empty()) {
            if (m_keepActions)
                plan.actions.reserve(m_parts->actions.size());
            for (std::size_t i = 0; i < m_parts->actions.size(); ++i)
                keep(action(part(m_parts->actionParser, m_parts->actions[i]), "$.actions[" + std::to_string(i) + "]"));
        } else {
            if (m_keepActions)
                plan.actions.reserve(list.size());
            std::size_t i = 0;
            for (dom::element a : list)
                keep(action(a, "$.actions[" + std::to_string(i++) + "]"));
        }
        if (dom::element c; top.at_key("consolidation").get(c) == simdjson::SUCCESS)
            consolidation(c, plan);
        return plan;
    }

    // The consolidation's kept-node record (plan-v1.md, "consolidation"). Its shape is checked
    // here, strictly as the rest of the file (a wrong type or size refuses the file with its
    // path); whether it fits a state (nodes, pods, codes, digest) is plankept.h's, which
    // ignores a record that does not, since the plan itself is still good.
    void consolidation(dom::element e, PlanDocument& plan)
    {
        const std::string path = "$.consolidation";
        dom::object probe;
        if (e.get_object().get(probe) != simdjson::SUCCESS)
            fail(path, "expected an object");
        const std::int64_t version = integer(probe, "version", path, 0);
        if (version != PlanKeptRecord::kVersion) {
            // An optional record of a later (or unknown) version: the plan stays readable; the
            // report replays the search instead of reading it.
            plan.consolidationNote = "the plan's recorded reasons why nodes stay are version " + std::to_string(version) + " (this Fleetscope reads "
                + std::to_string(PlanKeptRecord::kVersion) + "): not read";
            return;
        }
        const dom::object o = object(e, path, { "version", "order", "actionsSha256", "kept", "lpBound" });
        PlanKeptRecord r;
        r.order = bounded(o, "order", path, false);
        r.actionsSha256 = nonEmpty(o, "actionsSha256", path);
        if (r.actionsSha256.size() != 64 || r.actionsSha256.find_first_not_of("0123456789abcdef") != std::string::npos)
            fail(path + ".actionsSha256", "expected 64 lowercase hex digits");
        dom::element kept;
        if (o.at_key("kept").get(kept) != simdjson::SUCCESS)
            fail(path, "missing field \"kept\"");
        dom::array list;
        if (kept.get_array().get(list) != simdjson::SUCCESS)
            fail(path + ".kept", "expected an array");
        const bool byParts = m_parts && !m_parts->kept.empty(); // as for "actions"
        const std::size_t entries = byParts ? m_parts->kept.size() : list.size();
        if (entries > PlanKeptRecord::kMaxEntries)
            fail(path + ".kept", "more than " + std::to_string(PlanKeptRecord::kMaxEntries) + " entries");
        r.kept.reserve(entries);
        auto element = list.begin();
        for (std::size_t i = 0; i < entries; ++i) {
            dom::element k;
            if (byParts) {
                k = part(m_parts->keptParser, m_parts->kept[i]);
                m_parts->keptRead = i + 1;
            } else {
                k = *element;
                ++element;
            }
            const std::string at = path + ".kept[" + std::to_string(i) + "]";
            const dom::object ko = object(k, at, { "node", "pod", "code", "message", "blockingFilter" });
            PlanKeptRecord::Entry entry;
            entry.node = bounded(ko, "node", at, true);
            entry.pod = bounded(ko, "pod", at, false);
            entry.code = bounded(ko, "code", at, true);
            entry.message = bounded(ko, "message", at, false);
            if (dom::element b; ko.at_key("blockingFilter").get(b) == simdjson::SUCCESS) {
                const dom::object bo = object(b, at + ".blockingFilter", { "code", "nodes", "of", "judged", "next" });
                entry.blocking.code = bounded(bo, "code", at + ".blockingFilter", true);
                entry.blocking.nodes = count(bo, "nodes", at + ".blockingFilter");
                entry.blocking.of = count(bo, "of", at + ".blockingFilter");
                entry.blocking.judged = count(bo, "judged", at + ".blockingFilter");
                if (entry.blocking.nodes > entry.blocking.of || entry.blocking.judged > entry.blocking.of)
                    fail(at + ".blockingFilter", "nodes and judged are at most of");
                if (dom::element n; bo.at_key("next").get(n) == simdjson::SUCCESS) {
                    const dom::object no = object(n, at + ".blockingFilter.next", { "code", "nodes" });
                    entry.blocking.nextCode = bounded(no, "code", at + ".blockingFilter.next", true);
                    entry.blocking.nextNodes = count(no, "nodes", at + ".blockingFilter.next");
                }
            }
            r.kept.push_back(std::move(entry));
        }
        if (dom::element lp; o.at_key("lpBound").get(lp) == simdjson::SUCCESS) {
            const std::string at = path + ".lpBound";
            const dom::object lo = object(lp, at, { "nodes" });
            PlanKeptRecord::LpBound bound;
            bound.nodes = count(lo, "nodes", at);
            r.lpBound = bound;
        }
        plan.consolidation = std::move(r);
    }
    // A string of at most PlanKeptRecord::kMaxTextBytes bytes; non-empty when required.
    std::string bounded(dom::object o, std::string_view key, const std::string& path, bool required) const
    {
        std::string s = required ? nonEmpty(o, key, path) : string(o, key, path, false);
        if (s.size() > PlanKeptRecord::kMaxTextBytes)
            fail(path + "." + std::string(key), "longer than " + std::to_string(PlanKeptRecord::kMaxTextBytes) + " bytes");
        return s;
    }
    // A count from 0 to the node limit (required).
    std::int64_t count(dom::object o, std::string_view key, const std::string& path) const
    {
        const std::int64_t v = integer(o, key, path, -1);
        if (v < 0 || v > static_cast<std::int64_t>(PlanKeptRecord::kMaxEntries) * 10)
            fail(path + "." + std::string(key), "expected a count from 0 to " + std::to_string(PlanKeptRecord::kMaxEntries * 10));
        return v;
    }

    PlanSource source(dom::element e)
    {
        const dom::object o = object(e, "$.source", { "files", "server", "resourceVersion", "simulated" });
        PlanSource s;
        s.server = string(o, "server", "$.source", false);
        s.resourceVersion = string(o, "resourceVersion", "$.source", false);
        s.simulated = string(o, "simulated", "$.source", false);
        dom::element files;
        if (o.at_key("files").get(files) == simdjson::SUCCESS) {
            dom::array list;
            if (files.get_array().get(list) != simdjson::SUCCESS)
                fail("$.source.files", "expected an array");
            std::size_t i = 0;
            for (dom::element f : list) {
                const std::string path = "$.source.files[" + std::to_string(i++) + "]";
                const dom::object fo = object(f, path, { "name", "sha256" });
                PlanSource::File file;
                file.name = nonEmpty(fo, "name", path);
                file.sha256 = nonEmpty(fo, "sha256", path);
                if (file.sha256.size() != 64 || file.sha256.find_first_not_of("0123456789abcdef") != std::string::npos)
                    fail(path + ".sha256", "expected 64 lowercase hex digits");
                s.files.push_back(std::move(file));
            }
        }
        return s;
    }

    model::PlanAction action(dom::element e, const std::string& path)
    {
        dom::object probe;
        if (e.get_object().get(probe) != simdjson::SUCCESS)
            fail(path, "expected an object");
        const std::string type = nonEmpty(probe, "type", path);
        model::PlanAction a;
        if (type == "move-pod") {
            const dom::object o = object(e, path, { "type", "pod", "node", "override" });
            a.type = model::ActionType::MovePod;
            dom::element pod;
            if (o.at_key("pod").get(pod) != simdjson::SUCCESS)
                fail(path, "missing field \"pod\"");
            const dom::object po = object(pod, path + ".pod", { "namespace", "name", "uid" });
            a.pod.namespaceName = nonEmpty(po, "namespace", path + ".pod");
            a.pod.name = nonEmpty(po, "name", path + ".pod");
            a.pod.uid = string(po, "uid", path + ".pod", false);
            a.node = nonEmpty(o, "node", path);
            a.override = boolean(o, "override", path);
        } else if (type == "drain-node") {
            const dom::object o = object(e, path, { "type", "node", "policy", "domain" });
            a.type = model::ActionType::DrainNode;
            a.node = nonEmpty(o, "node", path);
            a.policy = string(o, "policy", path, false);
            a.domain = string(o, "domain", path, false);
            if (!model::isDrainPolicy(a.policy))
                fail(path + ".policy", "unknown drain policy \"" + a.policy + "\" (known: " + model::knownDrainPolicies() + ")");
        } else if (type == "fail-node") {
            const dom::object o = object(e, path, { "type", "node" });
            a.type = model::ActionType::FailNode;
            a.node = nonEmpty(o, "node", path);
        } else if (type == "add-node") {
            const dom::object o = object(e, path, { "type", "instanceType", "capacityType", "domain", "count" });
            a.type = model::ActionType::AddNode;
            a.instanceType = nonEmpty(o, "instanceType", path);
            a.capacityType = string(o, "capacityType", path, false);
            if (!a.capacityType.empty() && a.capacityType != "on-demand" && a.capacityType != "spot" && a.capacityType != "reserved")
                fail(path + ".capacityType", "expected \"on-demand\", \"spot\" or \"reserved\", got \"" + a.capacityType + "\"");
            a.domain = string(o, "domain", path, false);
            const std::int64_t count = integer(o, "count", path, 1);
            if (count < 1 || count > 100000)
                fail(path + ".count", "expected a count from 1 to 100000, got " + std::to_string(count));
            a.count = static_cast<std::int32_t>(count);
        } else if (type == "fail-domain") {
            const dom::object o = object(e, path, { "type", "domain" });
            a.type = model::ActionType::FailDomain;
            a.domain = nonEmpty(o, "domain", path);
        } else if (type == "place-workload") {
            const dom::object o = object(e, path, { "type", "workload", "domain", "policy" });
            a.type = model::ActionType::PlaceWorkload;
            dom::element w;
            if (o.at_key("workload").get(w) != simdjson::SUCCESS)
                fail(path, "missing field \"workload\"");
            const dom::object wo = object(w, path + ".workload", { "namespace", "name", "kind" });
            a.workloadNamespace = nonEmpty(wo, "namespace", path + ".workload");
            a.workloadName = nonEmpty(wo, "name", path + ".workload");
            a.workloadKind = string(wo, "kind", path + ".workload", false);
            a.domain = string(o, "domain", path, false);
            a.policy = string(o, "policy", path, false);
        } else if (type == "place-pods") {
            const dom::object o = object(e, path,
                { "type", "pod", "count", "podTemplate", "requiredLevel", "preferredLevel", "sliceSize", "sliceLevel", "keepWithin", "gang", "policy" });
            a.type = model::ActionType::PlacePods;
            dom::element pod;
            if (o.at_key("pod").get(pod) != simdjson::SUCCESS)
                fail(path, "missing field \"pod\"");
            const dom::object po = object(pod, path + ".pod", { "namespace", "name" });
            a.pod.namespaceName = nonEmpty(po, "namespace", path + ".pod");
            a.pod.name = nonEmpty(po, "name", path + ".pod");
            const std::int64_t count = integer(o, "count", path, 0);
            if (count < 1 || count > 1000000)
                fail(path + ".count", "expected a count from 1 to 1000000, got " + std::to_string(count));
            a.count = static_cast<std::int32_t>(count);
            if (dom::element t; o.at_key("podTemplate").get(t) == simdjson::SUCCESS) {
                if (!t.is_object())
                    fail(path + ".podTemplate", "expected a Pod object");
                noDuplicateKeys(t, path + ".podTemplate");
                a.podTemplate = simdjson::minify(t);
            }
            a.requiredLevel = string(o, "requiredLevel", path, false);
            a.preferredLevel = string(o, "preferredLevel", path, false);
            a.sliceLevel = string(o, "sliceLevel", path, false);
            a.keepWithinLevel = string(o, "keepWithin", path, false);
            const std::int64_t slice = integer(o, "sliceSize", path, 0);
            if (slice < 0 || slice > count)
                fail(path + ".sliceSize", "expected a slice size from 1 to the count, got " + std::to_string(slice));
            a.sliceSize = static_cast<std::int32_t>(slice);
            if (!a.requiredLevel.empty() && !a.preferredLevel.empty())
                fail(path, "give requiredLevel or preferredLevel, not both");
            if ((a.sliceSize > 0) != !a.sliceLevel.empty())
                fail(path, "sliceSize and sliceLevel go together");
            a.gang = true;
            if (dom::element g; o.at_key("gang").get(g) == simdjson::SUCCESS)
                a.gang = boolean(o, "gang", path);
            a.policy = string(o, "policy", path, false);
        } else {
            fail(path + ".type",
                "unknown action type \"" + type + "\" (expected move-pod, drain-node, add-node, fail-node, fail-domain, place-workload or place-pods)");
        }
        return a;
    }

private:
    // Thrown inside parseByParts() for a part that is not valid JSON.
    struct NotByParts { };
    // What parseByParts() found in the text: the bytes of each element of the two long arrays.
    struct Parts {
        std::vector<std::string_view> actions;
        std::vector<std::string_view> kept;
        std::size_t keptRead = 0; // how many of `kept` the record's reader parsed
        dom::parser actionParser; // one action at a time
        dom::parser keptParser;
    };

    // The DOM of one element (its bytes lie inside the padded text: no copy). Valid until the
    // parser's next parse.
    static dom::element part(dom::parser& parser, std::string_view bytes)
    {
        dom::element e;
        if (parser.parse(bytes.data(), bytes.size(), false).get(e) != simdjson::SUCCESS)
            throw NotByParts {};
        return e;
    }

    // Writes to `out` the text of the top object with the elements of "actions" and of
    // "consolidation"."kept" left out ("[]"), their ranges in `parts`, found by simdjson's
    // On-Demand parser (its structural index of the text, about 4 bytes per structural
    // character, and no DOM). False when the text is not JSON On-Demand can walk, or an element
    // is not an object (then parseWhole() says what and where). The other values are copied as
    // they are and each key written again escaped; their validity is the skeleton's parse's.
    static bool skeleton(simdjson::padded_string_view text, std::string& out, Parts& parts)
    {
        namespace od = simdjson::ondemand;
        od::parser parser;
        od::document doc;
        if (parser.iterate(text).get(doc) != simdjson::SUCCESS)
            return false;
        // The bytes after the top object go into the skeleton too, so that its parse refuses
        // what follows a complete object, as a parse of the whole text does.
        std::string_view whole;
        {
            od::object top;
            if (doc.get_object().get(top) != simdjson::SUCCESS || top.raw_json().get(whole) != simdjson::SUCCESS)
                return false;
        }
        const std::size_t tail = static_cast<std::size_t>(whole.data() - text.data()) + whole.size();
        doc.rewind();
        const auto raw = [](od::value v, std::string_view& bytes) {
            od::json_type type;
            if (v.type().get(type) != simdjson::SUCCESS)
                return false;
            if (type == od::json_type::object) {
                od::object o;
                return v.get_object().get(o) == simdjson::SUCCESS && o.raw_json().get(bytes) == simdjson::SUCCESS;
            }
            if (type == od::json_type::array) {
                od::array a;
                return v.get_array().get(a) == simdjson::SUCCESS && a.raw_json().get(bytes) == simdjson::SUCCESS;
            }
            bytes = v.raw_json_token();
            return true;
        };
        const auto elements = [](od::value v, std::vector<std::string_view>& into) {
            od::array a;
            if (v.get_array().get(a) != simdjson::SUCCESS)
                return false;
            for (auto item : a) {
                od::object o;
                std::string_view bytes;
                if (item.get_object().get(o) != simdjson::SUCCESS || o.raw_json().get(bytes) != simdjson::SUCCESS)
                    return false;
                into.push_back(bytes);
            }
            return true;
        };
        const auto members = [&out](od::object o, const auto& onValue) {
            out += '{';
            bool first = true;
            for (auto field : o) {
                std::string_view key;
                od::value value;
                if (field.unescaped_key().get(key) != simdjson::SUCCESS || field.value().get(value) != simdjson::SUCCESS)
                    return false;
                if (!first)
                    out += ',';
                first = false;
                JsonWriter quoted;
                quoted.value(key);
                out += quoted.text();
                out += ':';
                if (!onValue(key, value))
                    return false;
            }
            out += '}';
            return true;
        };
        const auto copied = [&out, &raw](od::value v) {
            std::string_view bytes;
            if (!raw(v, bytes))
                return false;
            out += bytes;
            return true;
        };
        od::object top;
        if (doc.get_object().get(top) != simdjson::SUCCESS)
            return false;
        const bool ok = members(top, [&](std::string_view key, od::value v) {
            od::json_type type;
            if (v.type().get(type) != simdjson::SUCCESS)
                return false;
            if (key == "actions" && type == od::json_type::array) {
                out += "[]";
                return elements(v, parts.actions);
            }
            if (key == "consolidation" && type == od::json_type::object) {
                od::object record;
                if (v.get_object().get(record) != simdjson::SUCCESS)
                    return false;
                return members(record, [&](std::string_view recordKey, od::value rv) {
                    od::json_type rtype;
                    if (rv.type().get(rtype) != simdjson::SUCCESS)
                        return false;
                    if (recordKey == "kept" && rtype == od::json_type::array) {
                        out += "[]";
                        return elements(rv, parts.kept);
                    }
                    return copied(rv);
                });
            }
            return copied(v);
        });
        if (!ok)
            return false;
        out.append(text.data() + tail, text.size() - tail);
        return true;
    }

    std::string m_file;
    bool m_keepActions = true;
    Parts* m_parts = nullptr; // parseByParts()'s, while it reads
};

} // namespace

PlanDocument readPlanFile(const std::string& path)
{
    return Reader(path).read();
}

PlanDocument parsePlanText(std::string_view text, const std::string& fileName)
{
    const simdjson::padded_string padded(text);
    return Reader(fileName).parse(simdjson::padded_string_view(padded.data(), padded.size(), padded.size() + simdjson::SIMDJSON_PADDING));
}

void checkPlanText(std::string_view text, const std::string& fileName)
{
    const simdjson::padded_string padded(text);
    (void)Reader(fileName, false).parse(simdjson::padded_string_view(padded.data(), padded.size(), padded.size() + simdjson::SIMDJSON_PADDING));
}

} // namespace fleet::importers
