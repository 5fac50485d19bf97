#pragma once

namespace dct::model {

struct ResolvedScenario;

/**
 * GPUs one scale-up (NVLink) domain joins in \a r: the node's GPUs, or, where the node type's
 * scale_up_domain_gpus is a whole number of its nodes (a GB200 NVL72 compute tray of 4 GPUs in
 * a 72-GPU NVLink domain: NVLink switch trays join 18 trays), that many nodes' GPUs, at most the
 * cluster's. NCCL treats such a domain as one node (multi-node NVLink: rings, trees and NVLS run
 * over NVLink inside it and over the NICs between domains).
 */
int scaleUpDomainGpus(const ResolvedScenario& r);

/** Nodes in one scale-up domain of \a r (1 where the domain is the node). */
int nodesPerScaleUpDomain(const ResolvedScenario& r);

} // namespace dct::model
