// SPDX-License-Identifier: Apache-2.0
// Tests of model/workloadname.h: the one rule that names a pod's workload (gang labels, the
// controller ownerReference, ReplicaSet -> Deployment by pod-template-hash, Job -> CronJob by
// the CronJob controller's name suffix), and that the store keeps workloads by it.

#include "model/clusterstore.h"
#include "model/workloadname.h"

#include <QtTest>

using fleet::model::OwnerKind;
Q_DECLARE_METATYPE(OwnerKind)

namespace {
using Labels = std::vector<std::pair<std::string, std::string>>;

Labels parseLabels(const QString& text)
{
    Labels out;
    for (const QString& pair : text.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        const qsizetype eq = pair.indexOf(QLatin1Char('='));
        out.emplace_back(pair.left(eq).toStdString(), pair.mid(eq + 1).toStdString());
    }
    return out;
}
} // namespace

class TestWorkloadName : public QObject {
    Q_OBJECT
private slots:
    void rule_data();
    void rule();
    void cronJobName_data();
    void cronJobName();
    void storeKeepsWorkloadsByTheRule();
};

void TestWorkloadName::rule_data()
{
    QTest::addColumn<OwnerKind>("controllerKind");
    QTest::addColumn<QString>("controllerName");
    QTest::addColumn<QString>("labels"); // k=v,k=v
    QTest::addColumn<OwnerKind>("kind");
    QTest::addColumn<QString>("name");

    QTest::newRow("bare pod") << OwnerKind::None << "" << "app=x" << OwnerKind::None << "";
    QTest::newRow("DaemonSet") << OwnerKind::DaemonSet << "kube-proxy" << "k8s-app=kube-proxy" << OwnerKind::DaemonSet << "kube-proxy";
    QTest::newRow("StatefulSet") << OwnerKind::StatefulSet << "mysql" << "app=mysql" << OwnerKind::StatefulSet << "mysql";
    QTest::newRow("ReplicaSet of a Deployment (EKS fixture)")
        << OwnerKind::ReplicaSet << "nginx-ingress-default-backend-5b967cf596" << "app=nginx-ingress,pod-template-hash=5b967cf596"
        << OwnerKind::Deployment << "nginx-ingress-default-backend";
    QTest::newRow("ReplicaSet without the hash label") << OwnerKind::ReplicaSet << "frontend" << "app=web" << OwnerKind::ReplicaSet << "frontend";
    QTest::newRow("hash label not the name's suffix") << OwnerKind::ReplicaSet << "frontend-abc" << "pod-template-hash=xyz"
                                                      << OwnerKind::ReplicaSet << "frontend-abc";
    QTest::newRow("hash is the whole name") << OwnerKind::ReplicaSet << "abc" << "pod-template-hash=abc" << OwnerKind::ReplicaSet << "abc";
    QTest::newRow("empty hash label") << OwnerKind::ReplicaSet << "web-" << "pod-template-hash=" << OwnerKind::ReplicaSet << "web-";
    QTest::newRow("hash on a Job is ignored") << OwnerKind::Job << "train-5b967cf596" << "pod-template-hash=5b967cf596"
                                              << OwnerKind::Job << "train-5b967cf596";
    QTest::newRow("Job of a CronJob") << OwnerKind::Job << "nightly-report-29934000" << "job-name=nightly-report-29934000"
                                      << OwnerKind::CronJob << "nightly-report";
    QTest::newRow("Job with a short number stays a Job") << OwnerKind::Job << "train-1" << "" << OwnerKind::Job << "train-1";
    QTest::newRow("7 digits stay a Job") << OwnerKind::Job << "etl-1234567" << "" << OwnerKind::Job << "etl-1234567";
    QTest::newRow("JobSet") << OwnerKind::Job << "llama-workers-0"
                            << "jobset.sigs.k8s.io/jobset-name=llama,jobset.sigs.k8s.io/replicatedjob-name=workers"
                            << OwnerKind::JobSet << "llama";
    QTest::newRow("JobSet label wins over CronJob suffix") << OwnerKind::Job << "llama-29934000"
                                                          << "jobset.sigs.k8s.io/jobset-name=llama" << OwnerKind::JobSet << "llama";
    QTest::newRow("Kubeflow PyTorchJob") << OwnerKind::TrainingJob << "bert" << "training.kubeflow.org/job-name=bert"
                                         << OwnerKind::TrainingJob << "bert";
    QTest::newRow("Kubeflow label on a bare pod") << OwnerKind::None << "" << "training.kubeflow.org/job-name=bert"
                                                  << OwnerKind::TrainingJob << "bert";
    QTest::newRow("LeaderWorkerSet worker StatefulSet") << OwnerKind::StatefulSet << "vllm-0" << "leaderworkerset.sigs.k8s.io/name=vllm"
                                                        << OwnerKind::LeaderWorkerSet << "vllm";
    QTest::newRow("Volcano job") << OwnerKind::Job << "mpi-pi" << "volcano.sh/job-name=mpi-pi" << OwnerKind::VolcanoJob << "mpi-pi";
    QTest::newRow("empty gang label is ignored") << OwnerKind::Job << "x-workers-0" << "jobset.sigs.k8s.io/jobset-name="
                                                 << OwnerKind::Job << "x-workers-0";
    QTest::newRow("JobSet before Volcano") << OwnerKind::Job << "j" << "volcano.sh/job-name=v,jobset.sigs.k8s.io/jobset-name=js"
                                           << OwnerKind::JobSet << "js";
}

void TestWorkloadName::rule()
{
    QFETCH(OwnerKind, controllerKind);
    QFETCH(QString, controllerName);
    QFETCH(QString, labels);
    QFETCH(OwnerKind, kind);
    QFETCH(QString, name);
    const std::string owner = controllerName.toStdString();
    const Labels l = parseLabels(labels);
    const fleet::model::WorkloadName w = fleet::model::workloadOfPod(controllerKind, owner, l);
    QCOMPARE(w.kind, kind);
    QCOMPARE(QString::fromStdString(std::string(w.name)), name);
}

void TestWorkloadName::cronJobName_data()
{
    QTest::addColumn<QString>("job");
    QTest::addColumn<QString>("cronJob");
    QTest::newRow("minutes since the epoch") << "hello-29934000" << "hello";
    QTest::newRow("dashes inside") << "db-backup-nightly-29934001" << "db-backup-nightly";
    QTest::newRow("more digits") << "x-123456789" << "x";
    QTest::newRow("seven digits") << "x-1234567" << "";
    QTest::newRow("no dash") << "x29934000" << "";
    QTest::newRow("nothing before") << "-29934000" << "";
    QTest::newRow("letters after") << "x-29934000a" << "";
    QTest::newRow("empty") << "" << "";
}

void TestWorkloadName::cronJobName()
{
    QFETCH(QString, job);
    const std::string j = job.toStdString();
    QTEST(QString::fromStdString(std::string(fleet::model::cronJobOfJobName(j))), "cronJob");
}

// Pods of one Deployment's two ReplicaSets (a rollout) are one workload; a JobSet's two Jobs
// too; workloads stay per namespace.
void TestWorkloadName::storeKeepsWorkloadsByTheRule()
{
    fleet::model::ClusterStore store;
    auto add = [&](const char* ns, const char* name, OwnerKind kind, const char* owner, Labels labels) {
        fleet::model::PodRecord p;
        p.namespaceName = ns;
        p.name = name;
        p.ownerKind = kind;
        p.ownerName = owner;
        p.labels = std::move(labels);
        return store.addPod(p);
    };
    const auto a = add("web", "front-aaa-1", OwnerKind::ReplicaSet, "front-aaa", {{"pod-template-hash", "aaa"}});
    const auto b = add("web", "front-bbb-1", OwnerKind::ReplicaSet, "front-bbb", {{"pod-template-hash", "bbb"}});
    const auto c = add("ml", "t-w-0-0", OwnerKind::Job, "t-workers-0", {{"jobset.sigs.k8s.io/jobset-name", "t"}});
    const auto d = add("ml", "t-l-0-0", OwnerKind::Job, "t-launcher-0", {{"jobset.sigs.k8s.io/jobset-name", "t"}});
    const auto e = add("other", "front-aaa-1", OwnerKind::ReplicaSet, "front-aaa", {{"pod-template-hash", "aaa"}});
    QCOMPARE(store.podWorkload(a), store.podWorkload(b));
    QCOMPARE(store.workloadKind(store.podWorkload(a)), OwnerKind::Deployment);
    QCOMPARE(store.workloadName(store.podWorkload(a)), std::string_view("front"));
    QCOMPARE(store.podWorkload(c), store.podWorkload(d));
    QCOMPARE(store.podOwnerKind(c), OwnerKind::JobSet);
    QVERIFY(store.podWorkload(e) != store.podWorkload(a));
    QCOMPARE(store.workloadCount(), std::size_t(3));
    QCOMPARE(fleet::model::ownerKindName(OwnerKind::JobSet), std::string_view("JobSet"));
    QCOMPARE(fleet::model::ownerKindFromName("PyTorchJob"), OwnerKind::TrainingJob);
    QCOMPARE(fleet::model::ownerKindFromName("LeaderWorkerSet"), OwnerKind::LeaderWorkerSet);
    // Labels come back as given, and pods with the same labels share one interned set.
    QCOMPARE(store.podLabels(a).size(), std::size_t(1));
    QCOMPARE(store.str(store.podLabels(a)[0].key), std::string_view("pod-template-hash"));
    QCOMPARE(store.podLabels(a).data(), store.podLabels(e).data());
}

QTEST_APPLESS_MAIN(TestWorkloadName)
#include "tst_workloadname.moc"
