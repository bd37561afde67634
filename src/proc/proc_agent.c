/* The proc agent's collectors: upstream darwin_proc's clusters and the new ones. */
#include "agent.h"
#include "collector.h"

extern const struct collector proc_control_collector, proc_psinfo_collector, proc_runq_collector,
    proc_id_collector, proc_memory_collector, proc_io_collector, proc_fd_collector, proc_qos_collector,
    proc_net_collector, proc_extra_collector, proc_thread_collector;
extern const char proc_help_source[];
int proc_control_store(agent_result *result, pmdaExt *pmda);

static const struct collector *const proc_collectors[] = {
    &proc_control_collector, &proc_psinfo_collector, &proc_runq_collector, &proc_id_collector,
    &proc_memory_collector, &proc_io_collector, &proc_fd_collector, &proc_qos_collector, &proc_net_collector,
    &proc_extra_collector, &proc_thread_collector,
};

const struct agent_desc proc_agent = {
    .name = "proc",
    .collectors = proc_collectors,
    .ncollectors = sizeof(proc_collectors) / sizeof(proc_collectors[0]),
    .help_source = proc_help_source,
    .store = proc_control_store,
    .processes = 1,
};
