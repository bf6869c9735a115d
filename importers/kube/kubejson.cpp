// SPDX-License-Identifier: Apache-2.0
// kubejson.cpp: the public entry points of the kubectl JSON importer (kubejson.h). The
// importer itself is two classes: JsonWindowReader (kubejsonreader_p.h), which reads the
// document in windows, and KubeObjectMapper (kubeobjectmapper_p.h), which maps its objects.
#include "kubejson.h"

#include "kubeobjectmapper_p.h"

namespace fleet::importers {

namespace kubejson_detail {
namespace {

/// One document from `source`: the reader hands the objects to the mapper.
void importFrom(Source& source, const std::string& sourceName, model::ClusterStore& store, ImportReport& report,
    ImportProgress* progress, const KubectlJsonOptions& options, KubectlJsonSession& session)
{
    JsonWindowReader reader(source, sourceName, progress, options.windowBytes);
    KubeObjectMapper mapper(reader, sourceName, store, report, options, session);
    reader.run(mapper);
    if (mapper.readAgainWithListKind()) {
        // The list's kind came after items that only it can name (a `jq -S` sorted
        // PodDisruptionBudgetList): nothing was committed, read them again knowing it.
        JsonWindowReader again(source, sourceName, progress, options.windowBytes);
        KubeObjectMapper second(again, sourceName, store, report, options, session);
        second.presetListKind(mapper.listKind());
        again.run(second);
        second.finish();
    } else {
        mapper.finish();
    }
    report.bytesRead += static_cast<std::size_t>(source.size());
}

} // namespace
} // namespace kubejson_detail

void importKubectlJsonFile(const std::string& path, model::ClusterStore& store, ImportReport& report, ImportProgress* progress,
    const KubectlJsonOptions& options, KubectlJsonSession& session)
{
    kubejson_detail::FileSource source(path);
    kubejson_detail::importFrom(source, path, store, report, progress, options, session);
}

void importKubectlJsonFile(const std::string& path, model::ClusterStore& store, ImportReport& report, ImportProgress* progress,
    const KubectlJsonOptions& options)
{
    KubectlJsonSession session;
    importKubectlJsonFile(path, store, report, progress, options, session);
    resolvePersistentVolumeClaims(session, store, report);
}

void importKubectlJsonFile(const std::string& path, model::ClusterStore& store, ImportReport& report, ImportProgress* progress)
{
    importKubectlJsonFile(path, store, report, progress, KubectlJsonOptions {});
}

void importKubectlJsonText(std::string_view json, const std::string& sourceName, model::ClusterStore& store, ImportReport& report,
    ImportProgress* progress, const KubectlJsonOptions& options, KubectlJsonSession& session)
{
    kubejson_detail::TextSource source(json);
    kubejson_detail::importFrom(source, sourceName, store, report, progress, options, session);
}

void importKubectlJsonText(std::string_view json, const std::string& sourceName, model::ClusterStore& store, ImportReport& report,
    ImportProgress* progress, const KubectlJsonOptions& options)
{
    KubectlJsonSession session;
    importKubectlJsonText(json, sourceName, store, report, progress, options, session);
    resolvePersistentVolumeClaims(session, store, report);
}

void importKubectlJsonText(std::string_view json, const std::string& sourceName, model::ClusterStore& store, ImportReport& report,
    ImportProgress* progress)
{
    importKubectlJsonText(json, sourceName, store, report, progress, KubectlJsonOptions {});
}

} // namespace fleet::importers
