/*
 * pmdaproc: the proc agent as a daemon that pmcd starts as root (domain 3).
 * It must be root to read other users' processes, and it checks each
 * client's credentials itself (proc_policy.h, proc_context.h). Options as PCP's Linux proc
 * agent has them: -A no access checks, -L threads as instances for every
 * client, -r access.conf.
 */
#include "agent.h"
#include "proc_context.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

static pmdaOptions opts = {
    .short_options = "AD:d:l:Lr:U:?",
    .long_options = (pmLongOptions[]) {
        PMDA_OPTIONS_HEADER("Options"),
        PMOPT_DEBUG,
        PMDAOPT_DOMAIN,
        PMDAOPT_LOGFILE,
        { "no-access-checks", 0, 'A', NULL, "serve every process's data to every client" },
        { "threads", 0, 'L', NULL, "threads as instances for every client" },
        { "access-config", 1, 'r', "FILE", "access.conf with \"allowed:\" users (default $PCP_SYSCONF_DIR/proc/access.conf)" },
        PMDAOPT_USERNAME,
        PMOPT_HELP,
        PMDA_OPTIONS_END
    },
};

static void
read_access_config(const char *path, int explicit)
{
    char msg[256];
    FILE *fp = fopen(path, "r");

    if (fp == NULL) {
        if (explicit)
            pmNotifyErr(LOG_ERR, "proc: cannot open %s: %s", path, strerror(errno));
        return;
    }
    if (proc_policy_read(proc_access_policy(), fp, path, msg, sizeof(msg)) < 0)
        pmNotifyErr(LOG_ERR, "proc: %s", msg);
    fclose(fp);
}

int
main(int argc, char **argv)
{
    pmdaInterface dispatch;
    char config[MAXPATHLEN];
    const char *access_path = NULL;
    int c;

    pmSetProgname(argv[0]);
    pmdaDaemon(&dispatch, PMDA_INTERFACE_7, pmGetProgname(), 3, "proc.log", NULL);
    while ((c = pmdaGetOptions(argc, argv, &opts, &dispatch)) != EOF) {
        if (c == 'A')
            proc_access_policy()->all_access = 1;
        else if (c == 'L')
            proc_access_policy()->threads = 1;
        else if (c == 'r')
            access_path = opts.optarg;
    }
    if (opts.errors) {
        pmdaUsageMessage(&opts);
        return 1;
    }
    pmdaOpenLog(&dispatch);
    snprintf(config, sizeof(config), "%s/proc/access.conf", pmGetConfig("PCP_SYSCONF_DIR"));
    read_access_config(access_path ? access_path : config, access_path != NULL);
    pmdaSetCommFlags(&dispatch, PMDA_FLAG_AUTHORIZE);
    if (agent_setup_unopened(&dispatch, &proc_agent) < 0)
        return 1;
    dispatch.version.seven.attribute = proc_context_attribute;
    pmdaSetEndContextCallBack(&dispatch, proc_context_end);
    pmdaConnect(&dispatch);
    agent_open_source();
    pmdaMain(&dispatch);
    agent_teardown();
    return 0;
}
