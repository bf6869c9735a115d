// SPDX-License-Identifier: Apache-2.0
#pragma once
// A deterministic generator of kubectl-shaped nodes and pods with the verbosity of real output
// (4-space indentation and sorted keys as kubectl prints them; labels, annotations,
// managedFields, container env/ports/volumeMounts, status conditions, containerStatuses, node
// images), for the import and live-list benchmarks. writeNode() and writePod() print one item of
// a List's "items" (with a trailing comma unless `last`). Node i is "node-..." as writePod()'s
// spec.nodeName names it.

#include <cinttypes>
#include <cstdint>
#include <cstdio>

namespace fleet::bench {

struct Rng {
    std::uint64_t state;
    std::uint64_t next()
    {
        std::uint64_t z = (state += 0x9e3779b97f4a7c15ull);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        return z ^ (z >> 31);
    }
    std::uint32_t below(std::uint32_t n) { return static_cast<std::uint32_t>(next() % n); }
};

const char* const kZones[] = { "us-east-1a", "us-east-1b", "us-east-1c", "us-east-1d" };
const char* const kNamespaces[] = { "default", "kube-system", "ml-training", "inference", "data", "monitoring", "batch", "web" };
const char* const kCpu[] = { "100m", "250m", "500m", "1", "2", "4", "8" };
const char* const kMemory[] = { "128Mi", "256Mi", "512Mi", "1Gi", "2Gi", "4Gi", "16Gi" };

inline void managedFields(std::FILE* f, const char* indent, const char* manager)
{
    std::fprintf(f,
        "%s\"managedFields\": [\n"
        "%s    {\n"
        "%s        \"apiVersion\": \"v1\",\n"
        "%s        \"fieldsType\": \"FieldsV1\",\n"
        "%s        \"fieldsV1\": {\n"
        "%s            \"f:metadata\": {\n"
        "%s                \"f:labels\": {\n"
        "%s                    \".\": {},\n"
        "%s                    \"f:app\": {}\n"
        "%s                }\n"
        "%s            },\n"
        "%s            \"f:status\": {\n"
        "%s                \"f:conditions\": {\n"
        "%s                    \"k:{\\\"type\\\":\\\"Ready\\\"}\": {\n"
        "%s                        \".\": {},\n"
        "%s                        \"f:lastTransitionTime\": {},\n"
        "%s                        \"f:status\": {},\n"
        "%s                        \"f:type\": {}\n"
        "%s                    }\n"
        "%s                }\n"
        "%s            }\n"
        "%s        },\n"
        "%s        \"manager\": \"%s\",\n"
        "%s        \"operation\": \"Update\",\n"
        "%s        \"time\": \"2026-11-29T10:00:00Z\"\n"
        "%s    }\n"
        "%s],\n",
        indent, indent, indent, indent, indent, indent, indent, indent, indent, indent, indent, indent, indent, indent, indent,
        indent, indent, indent, indent, indent, indent, indent, indent, manager, indent, indent, indent, indent);
}

inline void writeNode(std::FILE* f, Rng& rng, std::size_t i, bool last)
{
    const bool gpu = i % 10 == 0;
    const char* zone = kZones[i % 4];
    std::fprintf(f,
        "        {\n"
        "            \"apiVersion\": \"v1\",\n"
        "            \"kind\": \"Node\",\n"
        "            \"metadata\": {\n"
        "                \"annotations\": {\n"
        "                    \"alpha.kubernetes.io/provided-node-ip\": \"10.%zu.%zu.%zu\",\n"
        "                    \"node.alpha.kubernetes.io/ttl\": \"0\",\n"
        "                    \"volumes.kubernetes.io/controller-managed-attach-detach\": \"true\"\n"
        "                },\n"
        "                \"creationTimestamp\": \"2026-11-01T08:00:00Z\",\n"
        "                \"labels\": {\n"
        "                    \"beta.kubernetes.io/arch\": \"amd64\",\n"
        "                    \"beta.kubernetes.io/os\": \"linux\",\n"
        "                    \"eks.amazonaws.com/capacityType\": \"ON_DEMAND\",\n"
        "                    \"eks.amazonaws.com/nodegroup\": \"ng-%zu\",\n"
        "                    \"kubernetes.io/arch\": \"amd64\",\n"
        "                    \"kubernetes.io/hostname\": \"ip-10-%zu-%zu-%zu.ec2.internal\",\n"
        "                    \"kubernetes.io/os\": \"linux\",\n"
        "%s"
        "                    \"node.kubernetes.io/instance-type\": \"%s\",\n"
        "                    \"topology.k8s.aws/network-node-layer-1\": \"nn-%zu\",\n"
        "                    \"topology.k8s.aws/network-node-layer-2\": \"nn-%zu\",\n"
        "                    \"topology.k8s.aws/network-node-layer-3\": \"nn-%zu\",\n"
        "                    \"topology.kubernetes.io/region\": \"us-east-1\",\n"
        "                    \"topology.kubernetes.io/zone\": \"%s\"\n"
        "                },\n",
        (i >> 16) & 255, (i >> 8) & 255, i & 255, i % 50, (i >> 16) & 255, (i >> 8) & 255, i & 255,
        gpu ? "                    \"nvidia.com/gpu.product\": \"NVIDIA-H100-80GB-HBM3\",\n" : "",
        gpu ? "p5.48xlarge" : "m6i.4xlarge", i / 1000, i / 100, i / 20, zone);
    managedFields(f, "                ", "kubelet");
    std::fprintf(f,
        "                \"name\": \"ip-10-%zu-%zu-%zu.ec2.internal\",\n"
        "                \"resourceVersion\": \"%" PRIu64 "\",\n"
        "                \"uid\": \"%08" PRIx64 "-1111-2222-3333-%012zx\"\n"
        "            },\n"
        "            \"spec\": {\n"
        "                \"providerID\": \"aws:///%s/i-%016zx\"%s\n"
        "            },\n"
        "            \"status\": {\n"
        "                \"addresses\": [\n"
        "                    {\n"
        "                        \"address\": \"10.%zu.%zu.%zu\",\n"
        "                        \"type\": \"InternalIP\"\n"
        "                    },\n"
        "                    {\n"
        "                        \"address\": \"ip-10-%zu-%zu-%zu.ec2.internal\",\n"
        "                        \"type\": \"Hostname\"\n"
        "                    }\n"
        "                ],\n"
        "                \"allocatable\": {\n"
        "                    \"cpu\": \"%s\",\n"
        "                    \"ephemeral-storage\": \"95491281146\",\n"
        "                    \"hugepages-1Gi\": \"0\",\n"
        "                    \"hugepages-2Mi\": \"0\",\n"
        "                    \"memory\": \"%s\",\n"
        "%s"
        "                    \"pods\": \"%s\"\n"
        "                },\n"
        "                \"capacity\": {\n"
        "                    \"cpu\": \"%s\",\n"
        "                    \"ephemeral-storage\": \"104845292Ki\",\n"
        "                    \"hugepages-1Gi\": \"0\",\n"
        "                    \"hugepages-2Mi\": \"0\",\n"
        "                    \"memory\": \"%s\",\n"
        "%s"
        "                    \"pods\": \"%s\"\n"
        "                },\n"
        "                \"conditions\": [\n",
        (i >> 16) & 255, (i >> 8) & 255, i & 255, rng.next() % 100000000, rng.next() & 0xffffffff, i, zone, i,
        i % 97 == 0
            ? ",\n                \"taints\": [\n                    {\n                        \"effect\": \"NoSchedule\",\n"
              "                        \"key\": \"dedicated\",\n                        \"value\": \"gpu\"\n                    "
              "}\n"
              "                ]"
            : "",
        (i >> 16) & 255, (i >> 8) & 255, i & 255, (i >> 16) & 255, (i >> 8) & 255, i & 255, gpu ? "191450m" : "15890m",
        gpu ? "2045748Mi" : "62194312Ki",
        gpu ? "                    \"nvidia.com/gpu\": \"8\",\n                    \"vpc.amazonaws.com/efa\": \"32\",\n" : "",
        gpu ? "737" : "234", gpu ? "192" : "16", gpu ? "2097152Mi" : "64388232Ki",
        gpu ? "                    \"nvidia.com/gpu\": \"8\",\n                    \"vpc.amazonaws.com/efa\": \"32\",\n" : "",
        gpu ? "737" : "234");
    const char* types[] = { "MemoryPressure", "DiskPressure", "PIDPressure", "Ready" };
    for (int c = 0; c < 4; ++c)
        std::fprintf(f,
            "                    {\n"
            "                        \"lastHeartbeatTime\": \"2026-11-30T00:59:00Z\",\n"
            "                        \"lastTransitionTime\": \"2026-11-01T08:01:00Z\",\n"
            "                        \"message\": \"kubelet has sufficient resources\",\n"
            "                        \"reason\": \"KubeletHas%s\",\n"
            "                        \"status\": \"%s\",\n"
            "                        \"type\": \"%s\"\n"
            "                    }%s\n",
            types[c], c == 3 ? (i % 211 == 0 ? "False" : "True") : "False", types[c], c == 3 ? "" : ",");
    std::fprintf(f,
        "                ],\n"
        "                \"daemonEndpoints\": {\n"
        "                    \"kubeletEndpoint\": {\n"
        "                        \"Port\": 10250\n"
        "                    }\n"
        "                },\n"
        "                \"images\": [\n");
    for (int im = 0; im < 8; ++im)
        std::fprintf(f,
            "                    {\n"
            "                        \"names\": [\n"
            "                            \"602401143452.dkr.ecr.us-east-1.amazonaws.com/eks/image-%d@sha256:%016" PRIx64
            "%016" PRIx64 "\",\n"
            "                            \"602401143452.dkr.ecr.us-east-1.amazonaws.com/eks/image-%d:v1.%d.0\"\n"
            "                        ],\n"
            "                        \"sizeBytes\": %" PRIu64 "\n"
            "                    }%s\n",
            im, rng.next(), rng.next(), im, im, 10000000 + rng.next() % 900000000, im == 7 ? "" : ",");
    std::fprintf(f,
        "                ],\n"
        "                \"nodeInfo\": {\n"
        "                    \"architecture\": \"amd64\",\n"
        "                    \"bootID\": \"%016" PRIx64 "\",\n"
        "                    \"containerRuntimeVersion\": \"containerd://1.7.11\",\n"
        "                    \"kernelVersion\": \"5.10.205-195.807.amzn2.x86_64\",\n"
        "                    \"kubeProxyVersion\": \"v1.29.0-eks-5e0fdde\",\n"
        "                    \"kubeletVersion\": \"v1.29.0-eks-5e0fdde\",\n"
        "                    \"machineID\": \"%016" PRIx64 "\",\n"
        "                    \"operatingSystem\": \"linux\",\n"
        "                    \"osImage\": \"Amazon Linux 2\",\n"
        "                    \"systemUUID\": \"%016" PRIx64 "\"\n"
        "                }\n"
        "            }\n"
        "        }%s\n",
        rng.next(), rng.next(), rng.next(), last ? "" : ",");
}

inline void writePod(std::FILE* f, Rng& rng, std::size_t i, std::size_t nodes, bool last)
{
    const std::size_t node = rng.below(static_cast<std::uint32_t>(nodes));
    const bool gpu = node % 10 == 0 && rng.below(2) == 0;
    const char* ns = kNamespaces[i % 8];
    const std::size_t workload = i / 20;
    const bool daemon = i % 25 == 0;
    const bool pending = i % 500 == 0;
    const bool done = i % 300 == 0;
    const int c = static_cast<int>(rng.below(7));
    const int m = static_cast<int>(rng.below(7));
    std::fprintf(f,
        "        {\n"
        "            \"apiVersion\": \"v1\",\n"
        "            \"kind\": \"Pod\",\n"
        "            \"metadata\": {\n"
        "                \"annotations\": {\n"
        "                    \"kubectl.kubernetes.io/restartedAt\": \"2026-11-20T12:00:00Z\",\n"
        "                    \"prometheus.io/port\": \"9090\",\n"
        "                    \"prometheus.io/scrape\": \"true\"\n"
        "                },\n"
        "                \"creationTimestamp\": \"2026-11-29T09:00:00Z\",\n"
        "                \"generateName\": \"app-%zu-7d9c8b6f5-\",\n"
        "                \"labels\": {\n"
        "                    \"app\": \"app-%zu\",\n"
        "                    \"pod-template-hash\": \"7d9c8b6f5\",\n"
        "                    \"team\": \"team-%zu\"\n"
        "                },\n",
        workload, workload, workload % 40);
    managedFields(f, "                ", "kube-controller-manager");
    std::fprintf(f,
        "                \"name\": \"app-%zu-7d9c8b6f5-%06zx\",\n"
        "                \"namespace\": \"%s\",\n"
        "                \"ownerReferences\": [\n"
        "                    {\n"
        "                        \"apiVersion\": \"apps/v1\",\n"
        "                        \"blockOwnerDeletion\": true,\n"
        "                        \"controller\": true,\n"
        "                        \"kind\": \"%s\",\n"
        "                        \"name\": \"app-%zu-7d9c8b6f5\",\n"
        "                        \"uid\": \"%016" PRIx64 "\"\n"
        "                    }\n"
        "                ],\n"
        "                \"resourceVersion\": \"%" PRIu64 "\",\n"
        "                \"uid\": \"%016" PRIx64 "\"\n"
        "            },\n"
        "            \"spec\": {\n"
        "                \"containers\": [\n"
        "                    {\n"
        "                        \"env\": [\n"
        "                            {\n"
        "                                \"name\": \"LOG_LEVEL\",\n"
        "                                \"value\": \"info\"\n"
        "                            },\n"
        "                            {\n"
        "                                \"name\": \"POD_NAME\",\n"
        "                                \"valueFrom\": {\n"
        "                                    \"fieldRef\": {\n"
        "                                        \"apiVersion\": \"v1\",\n"
        "                                        \"fieldPath\": \"metadata.name\"\n"
        "                                    }\n"
        "                                }\n"
        "                            }\n"
        "                        ],\n"
        "                        \"image\": \"registry.example.com/team/app-%zu:v2.%zu.1\",\n"
        "                        \"imagePullPolicy\": \"IfNotPresent\",\n"
        "                        \"name\": \"app\",\n"
        "                        \"ports\": [\n"
        "                            {\n"
        "                                \"containerPort\": 8080,\n"
        "                                \"name\": \"http\",\n"
        "                                \"protocol\": \"TCP\"\n"
        "                            }\n"
        "                        ],\n"
        "                        \"resources\": {\n"
        "                            \"limits\": {\n"
        "                                \"memory\": \"%s\"%s\n"
        "                            },\n"
        "                            \"requests\": {\n"
        "                                \"cpu\": \"%s\",\n"
        "                                \"memory\": \"%s\"%s\n"
        "                            }\n"
        "                        },\n"
        "                        \"terminationMessagePath\": \"/dev/termination-log\",\n"
        "                        \"terminationMessagePolicy\": \"File\",\n"
        "                        \"volumeMounts\": [\n"
        "                            {\n"
        "                                \"mountPath\": \"/var/run/secrets/kubernetes.io/serviceaccount\",\n"
        "                                \"name\": \"kube-api-access-%05zx\",\n"
        "                                \"readOnly\": true\n"
        "                            }\n"
        "                        ]\n"
        "                    }\n"
        "                ],\n"
        "                \"dnsPolicy\": \"ClusterFirst\",\n"
        "                \"enableServiceLinks\": true,\n",
        workload, i, ns, daemon ? "DaemonSet" : "ReplicaSet", workload, rng.next(), rng.next() % 100000000, rng.next(), workload,
        i % 10, kMemory[m], gpu ? ",\n                                \"nvidia.com/gpu\": \"1\"" : "", kCpu[c], kMemory[m],
        gpu ? ",\n                                \"nvidia.com/gpu\": \"1\"" : "", i & 0xfffff);
    if (!pending)
        std::fprintf(f, "                \"nodeName\": \"ip-10-%zu-%zu-%zu.ec2.internal\",\n", (node >> 16) & 255,
            (node >> 8) & 255, node & 255);
    if (gpu)
        std::fprintf(f,
            "                \"nodeSelector\": {\n"
            "                    \"nvidia.com/gpu.product\": \"NVIDIA-H100-80GB-HBM3\"\n"
            "                },\n");
    std::fprintf(f,
        "                \"preemptionPolicy\": \"PreemptLowerPriority\",\n"
        "                \"priority\": %d,\n"
        "                \"restartPolicy\": \"Always\",\n"
        "                \"schedulerName\": \"default-scheduler\",\n"
        "                \"securityContext\": {},\n"
        "                \"serviceAccount\": \"default\",\n"
        "                \"serviceAccountName\": \"default\",\n"
        "                \"terminationGracePeriodSeconds\": 30,\n"
        "                \"tolerations\": [\n"
        "                    {\n"
        "                        \"effect\": \"NoExecute\",\n"
        "                        \"key\": \"node.kubernetes.io/not-ready\",\n"
        "                        \"operator\": \"Exists\",\n"
        "                        \"tolerationSeconds\": 300\n"
        "                    },\n"
        "                    {\n"
        "                        \"effect\": \"NoExecute\",\n"
        "                        \"key\": \"node.kubernetes.io/unreachable\",\n"
        "                        \"operator\": \"Exists\",\n"
        "                        \"tolerationSeconds\": 300\n"
        "                    }\n"
        "                ],\n"
        "                \"volumes\": [\n"
        "                    {\n"
        "                        \"name\": \"kube-api-access-%05zx\",\n"
        "                        \"projected\": {\n"
        "                            \"defaultMode\": 420,\n"
        "                            \"sources\": [\n"
        "                                {\n"
        "                                    \"serviceAccountToken\": {\n"
        "                                        \"expirationSeconds\": 3607,\n"
        "                                        \"path\": \"token\"\n"
        "                                    }\n"
        "                                }\n"
        "                            ]\n"
        "                        }\n"
        "                    }\n"
        "                ]\n"
        "            },\n"
        "            \"status\": {\n"
        "                \"conditions\": [\n",
        daemon ? 2000001000 : 0, i & 0xfffff);
    const char* types[] = { "Initialized", "Ready", "ContainersReady", "PodScheduled" };
    for (int k = 0; k < 4; ++k)
        std::fprintf(f,
            "                    {\n"
            "                        \"lastProbeTime\": null,\n"
            "                        \"lastTransitionTime\": \"2026-11-29T09:00:05Z\",\n"
            "                        \"status\": \"True\",\n"
            "                        \"type\": \"%s\"\n"
            "                    }%s\n",
            types[k], k == 3 ? "" : ",");
    std::fprintf(f,
        "                ],\n"
        "                \"containerStatuses\": [\n"
        "                    {\n"
        "                        \"containerID\": \"containerd://%016" PRIx64 "%016" PRIx64 "\",\n"
        "                        \"image\": \"registry.example.com/team/app-%zu:v2.%zu.1\",\n"
        "                        \"imageID\": \"registry.example.com/team/app-%zu@sha256:%016" PRIx64 "%016" PRIx64 "\",\n"
        "                        \"lastState\": {},\n"
        "                        \"name\": \"app\",\n"
        "                        \"ready\": true,\n"
        "                        \"restartCount\": %u,\n"
        "                        \"started\": true,\n"
        "                        \"state\": {\n"
        "                            \"running\": {\n"
        "                                \"startedAt\": \"2026-11-29T09:00:04Z\"\n"
        "                            }\n"
        "                        }\n"
        "                    }\n"
        "                ],\n"
        "                \"hostIP\": \"10.%zu.%zu.%zu\",\n"
        "                \"phase\": \"%s\",\n"
        "                \"podIP\": \"100.%zu.%zu.%zu\",\n"
        "                \"qosClass\": \"Burstable\",\n"
        "                \"startTime\": \"2026-11-29T09:00:00Z\"\n"
        "            }\n"
        "        }%s\n",
        rng.next(), rng.next(), workload, i % 10, workload, rng.next(), rng.next(), rng.below(3), (node >> 16) & 255,
        (node >> 8) & 255, node & 255,
        pending    ? "Pending"
            : done ? "Succeeded"
                   : "Running",
        (i >> 16) & 255, (i >> 8) & 255, i & 255, last ? "" : ",");
}


} // namespace fleet::bench
