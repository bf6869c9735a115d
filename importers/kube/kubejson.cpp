// SPDX-License-Identifier: Apache-2.0
// kubejson.cpp: the public entry points of the kubectl JSON importer (kubejson.h). The
// importer itself is KubectlJsonImporter (kubejsonimporter_p.h), implemented in
// kubejsonwindow.cpp (windows, phases, errors) and kubeobjects.cpp (Node/Pod mapping).
#include "kubejson.h"

#include "kubejsonimporter_p.h"

namespace fleet::importers {

void importKubectlJsonFile(const std::string& path, model::ClusterStore& store, ImportReport& report, ImportProgress* progress,
    const KubectlJsonOptions& options, KubectlJsonSession& session)
{
    kubejson_detail::FileSource source(path);
    kubejson_detail::KubectlJsonImporter importer(source, path, store, report, progress, options, session);
    importer.run();
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
    kubejson_detail::KubectlJsonImporter importer(source, sourceName, store, report, progress, options, session);
    importer.run();
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
