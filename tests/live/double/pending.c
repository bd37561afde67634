/* Calls whose double is being written: each stops the test that reaches it. */
#include "double.h"

#include <dlfcn.h>
#include <grp.h>
#include <libproc.h>
#include <notify.h>
#include <pwd.h>
#include <sys/resource.h>
#include <unistd.h>

#define PENDING(call) dbl_violation("%s: no double yet", call)

int proc_pidinfo(int pid, int flavor, uint64_t arg, void *buffer, int size) { (void)pid; (void)flavor; (void)arg; (void)buffer; (void)size; PENDING("proc_pidinfo"); }
int proc_pid_rusage(int pid, int flavor, rusage_info_t *buffer) { (void)pid; (void)flavor; (void)buffer; PENDING("proc_pid_rusage"); }
int proc_pidpath(int pid, void *buffer, uint32_t size) { (void)pid; (void)buffer; (void)size; PENDING("proc_pidpath"); }
int getpwuid_r(uid_t uid, struct passwd *pw, char *buf, size_t len, struct passwd **res) { (void)uid; (void)pw; (void)buf; (void)len; (void)res; PENDING("getpwuid_r"); }
int getgrgid_r(gid_t gid, struct group *gr, char *buf, size_t len, struct group **res) { (void)gid; (void)gr; (void)buf; (void)len; (void)res; PENDING("getgrgid_r"); }
char *devname_r(dev_t dev, mode_t type, char *buf, int len) { (void)dev; (void)type; (void)buf; (void)len; PENDING("devname_r"); }
uid_t geteuid(void) { PENDING("geteuid"); }
void *dlopen(const char *path, int mode) { (void)path; (void)mode; PENDING("dlopen"); }
void *dlsym(void *handle, const char *name) { (void)handle; (void)name; PENDING("dlsym"); }
int dlclose(void *handle) { (void)handle; PENDING("dlclose"); }
char *dlerror(void) { PENDING("dlerror"); }
int dbl_service_open(const char *class_name, uint32_t type) { (void)class_name; (void)type; PENDING("IOServiceOpen"); }
int dbl_service_call(const char *class_name, uint32_t selector, const void *in, size_t in_size, void *out, size_t *out_size) { (void)class_name; (void)selector; (void)in; (void)in_size; (void)out; (void)out_size; PENDING("IOConnectCallStructMethod"); }
uint32_t notify_register_check(const char *name, int *token) { (void)name; (void)token; PENDING("notify_register_check"); }
uint32_t notify_get_state(int token, uint64_t *state) { (void)token; (void)state; PENDING("notify_get_state"); }
uint32_t notify_cancel(int token) { (void)token; PENDING("notify_cancel"); }
void dbl_private_reset(void) {}
void dbl_notify_reset(void) {}
long dbl_notify_tokens(void) { return 0; }
