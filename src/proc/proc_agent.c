/* The proc agent's collectors: control, and the processes (with the run queue). */
#include "agent.h"
#include "collector.h"

extern const struct collector proc_control_collector, proc_processes_collector;
extern const char proc_help_source[];
int proc_control_store(agent_result *result, pmdaExt *pmda);

static const struct collector *const proc_collectors[] = {
    &proc_control_collector, &proc_processes_collector,
};

const struct agent_desc proc_agent = {
    .name = "proc",
    .collectors = proc_collectors,
    .ncollectors = sizeof(proc_collectors) / sizeof(proc_collectors[0]),
    .help_source = proc_help_source,
    .store = proc_control_store,
    .processes = 1,
};
