#!/bin/bash
# Integration with real PCP: a private pmcd on a loopback port loads the built
# module in snapshot mode, and PCP's own clients check what it serves.
#
# usage: run.sh MODULE SOURCE_DIR WORK_DIR
set -u
module=$(realpath "$1") src=$(realpath "$2") work=$3
. "$src/tests/integration/lib.sh"
fixtures=$src/tests/fixtures
rm -rf "$work"; mkdir -p "$work"
trap stop_pmcd EXIT

names=$(pminfo -n "$src/pmns/root" | grep -v '^event\.' | sort)   # PCP adds event.* itself
# Apple Silicon reports no L3 cache per performance level: those two have no value there.
no_l3='^hinv\.perflevel\.(l3cache|cpus_per_l3)$'
# The Apple Silicon fixture has the TCP statistics withheld (the macOS default), and
# macOS has no TIME_WAIT count, retransmission-timeout bounds or compressor
# major-compaction count: no values for these.
# No NFS server has run on it (nfsd not running, every server counter zero): not supported.
# Nor shared, buffer and slab memory, I/O wait, interrupt and steal time or interrupt counts (Linux's names).
no_macos_source='^nfs3\.server\.|^rpc\.server\.|^mem\.compressor\.major_compactions$|^mem\.util\.(shmem|bufmem|slabReclaimable)$|^kernel\.(all|percpu)\.(intr|cpu\.(wait\.total|irq\.hard|irq\.soft|steal))$|^network\.tcp\.(activeopens|passiveopens|attemptfails|estabresets|insegs|outsegs|retranssegs|inerrs\..*|outrsts|incsumerrors|rtoalgorithm|rtomin|rtomax|maxconn)$|^network\.tcpconn\.time_wait$'
# What the Apple Silicon fixture's Mac lacks: memory of the GPU's own (unified memory), an adapter
# (on battery), fans (a MacBook Air), the proximity and ambient sensors Apple Silicon has not,
# the memory controllers' byte counters ("AMC Stats", which it cannot subscribe, as an M4
# Pro on macOS 27 cannot, metaspartan/mactop pull request 91, nor an M5 Max on 26.5.2,
# kennss/SiliconScope issue 30), a Neural Engine (its model has none), and CPU rails (known on
# the M3 Max only; it is an M2).
not_on_this_mac='^gpu\.memory\.(free|total)$|^power\.adapter\.|^thermal\.fan\.|^thermal\.(cpu\.proximity|ambient)$|^mem\.bandwidth\.(read|write)_bytes$|^kernel\.ane\.|^power\.cpu\.watts$'
as_names=$(echo "$names" | grep -v -E "$no_l3|$no_macos_source|$not_on_this_mac")
nnames=$(echo "$as_names" | wc -l)

# Blocks of "pminfo" output, one per metric, each on one line, for grepping.
blocks() { awk 'BEGIN{RS=""; FS="\n"} {gsub(/\n/, " | "); print}'; }
every_block() { # every_block PATTERN FILE: each of the $nnames blocks matches PATTERN
    [ "$(blocks < "$2" | grep -c -- "$1")" -eq "$nnames" ] && [ "$(blocks < "$2" | wc -l)" -eq "$nnames" ]
}
# all values of a pmval run (its numeric lines) lie in [lo, hi]; at least min of them
values_within() { # values_within FILE LO HI MIN
    awk -v lo="$2" -v hi="$3" -v min="$4" 'NF <= 2 && $NF ~ /^[0-9]+\.[0-9]+$/ {n++; if ($NF < lo || $NF > hi) bad++}
        END {exit !(n >= min && bad == 0)}' "$1"
}

values_within_int() { # values_within_int FILE LO HI MIN: as values_within, for whole numbers
    awk -v lo="$2" -v hi="$3" -v min="$4" 'NF == 1 && $1 ~ /^[0-9]+$/ {n++; if ($NF < lo || $NF > hi) bad++}
        END {exit !(n >= min && bad == 0)}' "$1"
}

# Disks, APFS, filesystems and NFS on the Apple Silicon fixture (tests/fixtures/model: disk0 does
# 220 reads/s of 24 KiB and 140 writes/s of 32 KiB; container disk3 writes 120 x 32 KiB/s;
# the USB disk disk4 is there from 10 s to 20 s of each 20 s replay lap).
storage_checks() {
    pmval -h 127.0.0.1 -t 1 -s 4 -i disk0 disk.dev.read > "$work/pmval.disk" 2>&1
    check "pmval: disk0 reads at 220/s" values_within "$work/pmval.disk" 218 222 3
    pmval -h 127.0.0.1 -f 1 -t 1 -s 4 disk.all.write_bytes > "$work/pmval.allw" 2>&1
    check "pmval: disk.all writes 4480 KiB/s with disk0 alone, 8960 while disk4 is there" values_within "$work/pmval.allw" 4470 8970 3
    pmval -h 127.0.0.1 -f 1 -t 1 -s 4 -i disk3 disk.apfs.container.bytes_written > "$work/pmval.apfs" 2>&1
    check "pmval: container disk3 writes 3932160 bytes/s (within the 0.2% that sampling jitter gives)" values_within "$work/pmval.apfs" 3924000 3940000 3
    # pmval's first value averages over the milliseconds since its own instance lookup (which
    # refreshes the disks too): only the later ones cover its 1-second interval.
    pmval -h 127.0.0.1 -t 1 -s 4 -i disk0 disk.dev.await 2>&1 | awk '$1 ~ /^[0-9]+$/ && n++' > "$work/pmval.await"
    check "disk0's await is the interval's 74 us per request" values_within_int "$work/pmval.await" 73000 75000 2
    pminfo -h 127.0.0.1 -fl disk.dev.read disk.apfs.container.block_size disk.apfs.volume.encrypted \
        filesys.capacity > "$work/storage.labels" 2>&1
    check "disk0 is labelled internal solid state on Apple Fabric" sh -c "grep 'or \"disk0\"] labels' '$work/storage.labels' |
        grep '\"location\":\"internal\"' | grep '\"medium\":\"solid state\"' | grep '\"protocol\":\"Apple Fabric\"' |
        grep -q '\"removable\":false'"
    check "container disk3 lives on disk0s2 of disk0" grep -q '"store":"disk0s2","store_disk":"disk0"' "$work/storage.labels"
    check "volume disk3s5 is the Data volume of container disk3" sh -c "grep 'or \"disk3s5\"] labels' '$work/storage.labels' |
        grep '\"container\":\"disk3\"' | grep '\"role\":\"Data\"' | grep -q '\"volume_name\":\"Macintosh HD - Data\"'"
    check "the Data filesystem names its device and container" sh -c "grep 'or \"/System/Volumes/Data\"] labels' '$work/storage.labels' |
        grep '\"apfs_container\":\"disk3\"' | grep '\"device\":\"/dev/disk3s5\"' | grep -q '\"fstype\":\"apfs\"'"
    pminfo -h 127.0.0.1 -f filesys.mountdir hinv.nfilesys > "$work/filesys" 2>&1
    check "filesystems are mount points; devfs and autofs are not counted" sh -c "grep -q '\"/System/Volumes/Data\"' '$work/filesys' &&
        ! grep -q -E '\"/dev\"|Data/home' '$work/filesys' && grep -q -E 'value [67]\$' '$work/filesys'"
    pmrep -h 127.0.0.1 -t 1 -s 2 -i /System/Volumes/Data filesys.full > "$work/pmrep.fs" 2>&1
    check "pmrep shows the Data volume 52-53% full, as df would" sh -c "grep -q -E '^ *52\.[0-9]+' '$work/pmrep.fs'"
    pminfo -h 127.0.0.1 -f rpc.client.rpccnt rpc.server.retfailed > "$work/nfs" 2>&1
    check "NFS client counters are served; the absent server is not supported, not zero" sh -c \
        "grep -q ' value [1-9][0-9]*\$' '$work/nfs' && grep -q 'not supported' '$work/nfs'"
    # disk4 leaves at 20 s of the lap and returns at 30 s: its instance id must
    # come back. Polled every 2 s until it has (at most 40 s, two laps).
    returned() {
        awk '/disk4/ { id[$0]++; if (gone) back = 1; seen = 1; here = 1; next }
             /^--$/ { if (seen && !here) gone = 1; here = 0 }
             END { n = 0; for (k in id) n++; exit !(back && n == 1) }' "$work/hotplug"
    }
    : > "$work/hotplug"
    for i in $(seq 1 20); do
        pminfo -h 127.0.0.1 -fl disk.dev.read > "$work/hotplug.now" 2>&1
        grep -o 'inst \[[0-9]* or "disk4"\] value' "$work/hotplug.now" >> "$work/hotplug"
        grep -q 'or "disk4"\] labels' "$work/hotplug.now" && cp "$work/hotplug.now" "$work/hotplug.labels"
        echo "--" >> "$work/hotplug"
        returned && break
        sleep 2
    done
    check "the USB disk leaves and returns with the same instance id" returned
    check "disk4 is labelled external, on USB, medium unknown" sh -c "grep 'or \"disk4\"] labels' '$work/hotplug.labels' |
        grep '\"location\":\"external\"' | grep '\"medium\":\"unknown\"' | grep -q '\"protocol\":\"USB\"'"
}


# Hardware on the Apple Silicon fixture (tests/fixtures/model and ioreg/m2-*.txt): on battery, fanless,
# IOReport energy at CPU 4.2 W, GPU 1.5 W, DRAM 0.35 W.
hardware_checks() {
    pmval -h 127.0.0.1 -t 1 -s 4 -f 3 power.energy.cpu > "$work/pmval.cpuw" 2>&1
    check "pmval: the CPU draws 4.2 W (the rate of its energy counter in joules)" values_within "$work/pmval.cpuw" 4.19 4.21 3
    pmval -h 127.0.0.1 -t 1 -s 4 -f 3 power.energy.gpu > "$work/pmval.gpuw" 2>&1
    check "pmval: the GPU draws 1.5 W from a counter in nJ" values_within "$work/pmval.gpuw" 1.49 1.51 3
    pminfo -h 127.0.0.1 -f power.battery power.source power.ac.connected > "$work/battery" 2>&1
    check "battery values are the dump's as macOS reads them" sh -c "blocks() { awk 'BEGIN{RS=\"\"} {gsub(/\\n/, \" \"); print}' '$work/battery'; }
        blocks | grep -q 'power.battery.charge  *value 72\$' && blocks | grep -q 'power.battery.health  *value 96\$' &&
        blocks | grep -q 'power.battery.amperage  *value -812\$' && blocks | grep -q 'capacity.max  *value 4101\$' &&
        blocks | grep -q 'capacity.design  *value 4382\$' && blocks | grep -q 'temperature  *value 30.51' &&
        blocks | grep -q 'time_remaining  *value 371\$' && blocks | grep -q 'state  *value \"discharging\"' &&
        blocks | grep -q 'power.source  *value \"Battery Power\"' && blocks | grep -q 'ac.connected  *value 0\$'"
    pminfo -h 127.0.0.1 -f thermal hinv.nfan gpu.memory.free power.adapter.watts > "$work/thermal.as" 2>&1
    check "Apple Silicon: no fans, no proximity or ambient sensor, no free GPU memory, no adapter" sh -c \
        "grep -A1 '^hinv.nfan' '$work/thermal.as' | grep -q 'value 0' &&
         grep -A1 '^thermal.ambient' '$work/thermal.as' | grep -q 'not supported' &&
         grep -A1 '^gpu.memory.free' '$work/thermal.as' | grep -q 'No value' &&
         grep -A1 '^power.adapter.watts' '$work/thermal.as' | grep -q 'No value' &&
         grep -A1 '^thermal.cpu.die' '$work/thermal.as' | grep -q 'value 55.875' &&
         grep -A1 '^thermal.pressure.state' '$work/thermal.as' | grep -q 'Nominal'"
    pminfo -h 127.0.0.1 -f power.system.watts > "$work/system.watts" 2>&1
    check "the whole Mac draws 12.5 W (SMC PSTR, flt)" sh -c "grep -A1 '^power.system.watts' '$work/system.watts' | grep -q 'value 12.5\$'"
    pstate_checks
    # Memory bandwidth (tests/fixtures/model): AGX's histogram averages 2.4 GB/s, a tenth of
    # the time in its top bucket; EACC0 reads 1.5 GB/s and never reaches its top.
    pmval -h 127.0.0.1 -t 1 -s 4 -f 0 -i AGX mem.bandwidth.read_write > "$work/pmval.agxbw" 2>&1
    check "pmval: the GPU moves 2.4 GB/s to and from memory" values_within_int "$work/pmval.agxbw" 2399000000 2401000000 3
    pminfo -h 127.0.0.1 -f mem.bandwidth.read mem.bandwidth.saturated > "$work/bandwidth" 2>&1
    check "EACC0 reads 1.5 GB/s; only AGX reached its top bucket" sh -c \
        "grep -A1 '^mem.bandwidth.read\$' '$work/bandwidth' | grep -q 'or \"EACC0\"\] value 1500000000\$' &&
         grep -q 'or \"AGX\"\] value 1\$' '$work/bandwidth' && grep -q 'or \"EACC0\"\] value 0\$' '$work/bandwidth'"
    pminfo -h 127.0.0.1 -l thermal.sensor.temperature > "$work/sensors.labels" 2>&1
    check "HID sensors are labelled where they sit; the -9200 junk reading has no value" sh -c \
        "grep 'or \"gas_gauge_battery\"] labels' '$work/sensors.labels' | grep -q '\"location\":\"battery\"' &&
         grep 'or \"NAND_CH0_temp\"] labels' '$work/sensors.labels' | grep -q '\"location\":\"SSD\"' &&
         ! pminfo -h 127.0.0.1 -f thermal.sensor.temperature | grep -q 'PMU_tdie3'"
}

# Performance states on the Apple Silicon fixture (tests/fixtures/model): ECPU runs 1500 MHz while
# active, 40 % of the time (600e6 cycles/s); PCPU 2750 MHz at 50 %, down 20 %; the GPU 800 MHz
# at 10 %. The clock and busy share are the derived metrics Install puts in PCP's derived folder.
pstate_checks() {
    local derived=$src/config/derived/darwin.conf
    pmval -h 127.0.0.1 -t 1 -s 4 -f 0 -i ECPU kernel.cpucluster.cycles > "$work/pmval.ecycles" 2>&1
    check "pmval: the E cluster runs 600e6 cycles a second" values_within_int "$work/pmval.ecycles" 599000000 601000000 3
    PCP_DERIVED_CONFIG=$derived pmval -h 127.0.0.1 -t 1 -s 4 -f 1 -i ECPU kernel.cpucluster.mhz > "$work/pmval.emhz" 2>&1
    check "derived kernel.cpucluster.mhz: ECPU at 1500 MHz while active" values_within "$work/pmval.emhz" 1499 1501 3
    PCP_DERIVED_CONFIG=$derived pmval -h 127.0.0.1 -t 1 -s 4 -f 1 -i PCPU kernel.cpucluster.mhz > "$work/pmval.pmhz" 2>&1
    check "derived kernel.cpucluster.mhz: PCPU at 2750 MHz while active" values_within "$work/pmval.pmhz" 2749 2751 3
    PCP_DERIVED_CONFIG=$derived pmval -h 127.0.0.1 -t 1 -s 4 -f 1 -i PCPU kernel.cpucluster.busy > "$work/pmval.pbusy" 2>&1
    check "derived kernel.cpucluster.busy: PCPU active 50 % of the time" values_within "$work/pmval.pbusy" 49.9 50.1 3
    PCP_DERIVED_CONFIG=$derived pmval -h 127.0.0.1 -t 1 -s 4 -f 1 -i ECPU0 kernel.cpucore.mhz > "$work/pmval.coremhz" 2>&1
    check "derived kernel.cpucore.mhz: ECPU0 at 1500 MHz while active" values_within "$work/pmval.coremhz" 1499 1501 3
    PCP_DERIVED_CONFIG=$derived pmval -h 127.0.0.1 -t 1 -s 4 -f 1 gpu.pstate.mhz > "$work/pmval.gmhz" 2>&1
    check "derived gpu.pstate.mhz: the GPU at 800 MHz while active" values_within "$work/pmval.gmhz" 799 801 3
    PCP_DERIVED_CONFIG=$derived pmval -h 127.0.0.1 -t 1 -s 4 -f 1 gpu.pstate.busy > "$work/pmval.gbusy" 2>&1
    check "derived gpu.pstate.busy: the GPU active 10 % of the time" values_within "$work/pmval.gbusy" 9.9 10.1 3
    pminfo -h 127.0.0.1 -fl kernel.cpucluster.clock.max > "$work/clusters" 2>&1
    check "each cluster's top clock, labelled with its performance level" sh -c \
        "grep -q 'or \"ECPU\"] value 1800' '$work/clusters' && grep -q 'or \"PCPU\"] value 3500' '$work/clusters' &&
         grep 'or \"ECPU\"] labels' '$work/clusters' | grep -q '\"perflevel\":\"efficiency\"' &&
         grep 'or \"PCPU\"] labels' '$work/clusters' | grep -q '\"perflevel\":\"performance\"'"
}

echo "# Apple Silicon fixture"
start_pmcd "$work/as" "$module" "$fixtures/apple-silicon.snapshot" || { not_ok "pmcd starts"; finish; exit 1; }
check "the PMNS has the metrics of the metric table, and no other" [ "$names" = "$("$METRIC_NAMES" darwin | sort)" ]
# The disks' interval averages need an interval: none at the first refresh.
pminfo -h 127.0.0.1 -f disk.dev.await disk.all.avgrq_sz > "$work/first-await" 2>&1
check "disk await and avgrq_sz have no value before there is an interval" \
    sh -c "[ \$(grep -c 'No value' '$work/first-await') -eq 2 ]"
# Nor has memory bandwidth, a mean between two readings of its histograms
# (nor its byte counters, which this Mac has not).
pminfo -h 127.0.0.1 -f mem.bandwidth > "$work/first-bandwidth" 2>&1
check "memory bandwidth has no value before there is an interval" sh -c \
    "[ \$(grep -c 'No value' '$work/first-bandwidth') -eq 6 ] && ! grep -q ' value ' '$work/first-bandwidth'"
sleep 1
pminfo -h 127.0.0.1 -fdlT $as_names > "$work/fdlT" 2>&1
check "pminfo -fdlT: every metric has a value" every_block " value " "$work/fdlT"
check "pminfo -fdlT: every metric has a descriptor" every_block "Data Type: .* Semantics: " "$work/fdlT"
check "pminfo -fdlT: every metric has help text" every_block 'Help: | [A-Za-z"]' "$work/fdlT"
check "pminfo -fdlT: every metric carries the domain labels agent=darwin, data_source=snapshot" \
    every_block '"agent":"darwin","data_source":"snapshot"' "$work/fdlT"
check "no metric reports an error or lacks help" sh -c "! grep -q -E '^ *Error|No value|not available' '$work/fdlT'"
cp "$work/fdlT" "$work/labels"
check "CPU instances carry their performance level" grep -q '"perflevel":"efficiency","perflevel_index":1' "$work/labels"
check "indoms carry indom_name" grep -q '"indom_name":"load average period"' "$work/labels"
check "performance levels carry their name and index" \
    grep -q 'inst \[[0-9]* or "efficiency"\] labels {.*"perflevel":"efficiency","perflevel_index":1' "$work/labels"
pminfo -h 127.0.0.1 -f $(echo "$names" | grep -E "$no_l3") > "$work/no-l3" 2>&1
check "no L3 cache is invented for Apple Silicon levels" sh -c "[ \$(grep -c 'No value' '$work/no-l3') -eq 2 ] && ! grep -q ' value ' '$work/no-l3'"
pminfo -h 127.0.0.1 -m $names > "$work/pmids" 2>&1
pminfo -n "$src/pmns/root" -m $names > "$work/pmids.expected" 2>&1
check "pmcd reports the upstream PMIDs" cmp -s "$work/pmids" "$work/pmids.expected"
pminfo -h 127.0.0.1 -d mem.pages.faults swap.pagesin > "$work/desc"
check "vm_statistics64 counters are 64-bit" [ "$(grep -c '64-bit unsigned int' "$work/desc")" -eq 2 ]

# 177 busy user ticks/s at 100 Hz over the 8 CPUs, scaled 0.7-1.3 by segment:
# kernel.all.cpu.user moves at 1.24-2.30 s per second (pmval shows s/s).
pmval -h 127.0.0.1 -t 1 -s 6 kernel.all.cpu.user > "$work/pmval" 2>&1
check "pmval shows a positive kernel.all.cpu.user rate consistent with the fixture" \
    values_within "$work/pmval" 1.2 2.35 5
# Per performance level (fixture: E cores 39, P cores 138 busy user ticks/s, scaled 0.7-1.3).
pmval -h 127.0.0.1 -t 1 -s 6 -i performance kernel.perflevel.cpu.user > "$work/pmval.p" 2>&1
pmval -h 127.0.0.1 -t 1 -s 6 -i efficiency kernel.perflevel.cpu.user > "$work/pmval.e" 2>&1
check "kernel.perflevel.cpu.user: performance cores do 1.0-1.8 s/s" values_within "$work/pmval.p" 0.95 1.8 5
check "kernel.perflevel.cpu.user: efficiency cores do 0.26-0.51 s/s" values_within "$work/pmval.e" 0.26 0.51 5
pmrep -h 127.0.0.1 -t 1 -s 3 -p kernel.perflevel.cpu.user kernel.perflevel.cpu.idle > "$work/pmrep.levels" 2>&1
check "pmrep shows CPU use per performance level" sh -c "grep -q 'performanc' '$work/pmrep.levels' &&
    grep -q 'efficiency' '$work/pmrep.levels' &&
    [ \$(grep -c -E '^[0-9:]+ +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+' '$work/pmrep.levels') -ge 2 ]"
pminfo -h 127.0.0.1 -f kernel.limits.maxproc > "$work/limits.alone" 2>&1
check "kernel.limits.* refresh when fetched alone" grep -q 'value 8000' "$work/limits.alone"
pminfo -h 127.0.0.1 -f mem.pressure kernel.all.nsessions kernel.all.nusers kernel.all.nroots \
    kernel.all.nprocs kernel.all.boottime hinv.cpu.brand mem.compressor.ratio > "$work/kernel.values" 2>&1
check "memory pressure reads Normal (1) at the start of the recording, 28% available" sh -c \
    "grep -A1 '^mem.pressure.level\$' '$work/kernel.values' | grep -q 'value 1' &&
     grep -A1 '^mem.pressure.state' '$work/kernel.values' | grep -q '\"Normal\"' &&
     grep -A1 '^mem.pressure.available' '$work/kernel.values' | grep -q 'value 28\$'"
check "login sessions: 2 USER_PROCESS records of 4, no root yet" sh -c \
    "grep -A1 '^kernel.all.nsessions' '$work/kernel.values' | grep -q 'value 2\$' &&
     grep -A1 '^kernel.all.nusers' '$work/kernel.values' | grep -q 'value 2\$' &&
     grep -A1 '^kernel.all.nroots' '$work/kernel.values' | grep -q 'value 0\$'"
check "nprocs counts tasks, boot time keeps microseconds, brand and compression ratio" sh -c \
    "grep -A1 '^kernel.all.nprocs' '$work/kernel.values' | grep -q 'value [78]\$' &&
     grep -A1 '^kernel.all.boottime' '$work/kernel.values' | grep -q 'value 1763500000.25\$' &&
     grep -A1 '^hinv.cpu.brand' '$work/kernel.values' | grep -q 'Apple M2' &&
     grep -A1 '^mem.compressor.ratio' '$work/kernel.values' | grep -q 'value 3'"
pminfo -h 127.0.0.1 -f mem.compressor.major_compactions > "$work/compactions" 2>&1
check "major_compactions: not supported, and nothing about it in pmcd's log" sh -c \
    "grep -q 'not supported by this version' '$work/compactions' &&
     ! grep -q -i 'compaction\|memory: some metrics unavailable' '$work/as/pmcd.log'"
pmval -h 127.0.0.1 -t 1 -s 4 vfs.vnodes.recycled > "$work/pmval.recycled" 2>&1
check "vfs.vnodes.recycled is a counter: pmval shows its rate (250/s)" values_within "$work/pmval.recycled" 249 251 3
# Interfaces (fixture: en0 receives 2,000,000 bytes/s while the kernel's
# NET_RT_IFLIST2 counter, truncated to 32 bits, wraps in the first interval).
pmval -h 127.0.0.1 -t 1 -s 8 -f 0 -i en0 network.interface.in.bytes > "$work/pmval.en0" 2>&1
# 0.2%: pmcd stamps a result a little before or after the agent reads the clock it
# interpolates at, by up to a few ms on a busy CI machine; a missed wrap would be 2^32 off.
check "en0's receive rate is right across the truncated counter's wrap" values_within_int "$work/pmval.en0" 1996000 2004000 7
# (within the same 0.2 %)
pmrep -h 127.0.0.1 -t 1 -s 6 -i en0 -p -f %s network.interface.in.bytes > "$work/pmrep.en0" 2>&1
check "pmrep shows the same 2,000,000 bytes/s for en0" sh -c \
    "[ \$(awk '\$2 ~ /^[0-9.]+\$/ && \$2 >= 1996000 && \$2 <= 2004000' '$work/pmrep.en0' | wc -l) -ge 5 ]"
pminfo -h 127.0.0.1 -f network.interface.bytes_truncated network.interface.type > "$work/netif.values" 2>&1
check "the truncation is reported for en0 and only en0" sh -c \
    "grep -q 'inst \[[0-9]* or \"en0\"\] value 1' '$work/netif.values' &&
     [ \$(grep -c ' value 1\$' '$work/netif.values') -eq 1 ]"
check "interfaces have their kind: wifi, ethernet, awdl, bridge, tunnel, loopback" sh -c \
    "for k in wifi ethernet awdl bridge tunnel loopback; do grep -q \"\\\"\$k\\\"\" '$work/netif.values' || exit 1; done"
check "interface instances carry an interface_type label" grep -q '"interface_type":"wifi"' "$work/labels"
# network.all: en0 2e6 + en1 1e5 + awdl0 1e3 + utun0 500 bytes/s in, lo0's 3e5 left out;
# plus en5's 3e6 from 15 s to 20 s of each lap, while the USB Ethernet is plugged in.
pmval -h 127.0.0.1 -t 1 -s 6 -f 0 network.all.in.bytes > "$work/pmval.all" 2>&1
check "network.all.in.bytes leaves loopback out (2,101,500 bytes/s, 5,101,500 with en5)" awk '
    NF == 1 && $1 ~ /^[0-9]+$/ { n++; if (!($1 >= 2097300 && $1 <= 2105700) && !($1 >= 5091300 && $1 <= 5111700)) bad++ }
    END { exit !(n >= 5 && bad == 0) }' "$work/pmval.all"
# Protocols (fixture: 4000 UDP datagrams/s in, the kernel's 32-bit counter
# wrapping between the 2nd and 3rd samples; 33 ICMP messages/s in, one of
# them of type 11, time exceeded).
pmval -h 127.0.0.1 -t 2 -s 8 -f 0 network.udp.indatagrams > "$work/pmval.udp" 2>&1
check "UDP datagram rate stays right across the kernel counter's wrap" values_within_int "$work/pmval.udp" 3990 4010 7
# Over 3 s, the replay's whole counts (one message either way at each end)
# and the fetch's wall-clock jitter move the rate by well under one a second.
pmval -h 127.0.0.1 -t 3 -s 3 -f 0 network.icmp.inmsgs > "$work/pmval.icmp" 2>&1
check "ICMP messages in: 33/s from the histogram" values_within_int "$work/pmval.icmp" 32 34 2
pminfo -h 127.0.0.1 -f network.sockstat network.ipv6.inreceives > "$work/proto.values" 2>&1
# ip6.total starts at 5,000,000 in the fixture and grows for as long as the replay runs (its laps
# carry on from the last sample), so the value depends on when this line runs: at least the first.
check "socket counts and IPv6 counters are served" sh -c \
    "grep -A1 '^network.sockstat.tcp.inuse' '$work/proto.values' | grep -q 'value 6[0-9]\$' &&
     grep -A1 '^network.ipv6.inreceives' '$work/proto.values' | awk '/value/ { ok = \$2 >= 5000000 } END { exit !ok }'"
# TCP: statistics withheld by macOS's default report an error and say so; states are counted.
pminfo -h 127.0.0.1 -f network.tcp.insegs network.tcp.stats_accessible network.tcp.currestab \
    network.tcpconn.listen network.tcpconn.time_wait > "$work/tcp.values" 2>&1
check "withheld TCP statistics report a permission error, not 0, and the log says why once" sh -c \
    "grep -A1 '^network.tcp.insegs' '$work/tcp.values' | grep -q 'No permission' &&
     grep -A1 '^network.tcp.stats_accessible' '$work/tcp.values' | grep -q 'value 0\$' &&
     [ \$(grep -c 'statistics withheld by net.inet.tcp.disable_access_to_stats' '$work/as/pmcd.log') -eq 1 ]"
check "TCP connection states are counted; TIME_WAIT says macOS does not list it" sh -c \
    "grep -A1 '^network.tcp.currestab' '$work/tcp.values' | grep -q 'value \(3[7-9]\|4[01]\)\$' &&
     grep -A1 '^network.tcpconn.listen' '$work/tcp.values' | grep -q 'value 14\$' &&
     grep -A1 '^network.tcpconn.time_wait' '$work/tcp.values' | grep -q 'not supported by this version'"
pmrep -h 127.0.0.1 -t 1 -s 3 kernel.all.cpu.user kernel.all.cpu.sys mem.util.used mem.util.compressed \
    kernel.all.load > "$work/pmrep" 2>&1
check "pmrep shows CPU, memory and load" sh -c "grep -q 'm.u.compressed' '$work/pmrep' &&
    [ \$(grep -c -E '^ +[0-9.]+ +[0-9.]+ +[0-9]+ +[0-9]+ +[0-9.]+' '$work/pmrep') -ge 2 ]"

printf 'log mandatory on 1 sec {\n kernel.all.cpu\n kernel.percpu.cpu\n mem\n swap\n kernel.all.load\n vfs\n ipc\n}\n' > "$work/logger.conf"
pmlogger -h 127.0.0.1 -c "$work/logger.conf" -s 3 -l "$work/pmlogger.log" "$work/archive" >/dev/null 2>&1
pmdumplog -a "$work/archive" > "$work/dump" 2>&1
check "pmlogger records an archive that pmdumplog reads" \
    sh -c "grep -q '78.6.42 (kernel.all.cpu.user)' '$work/dump' && grep -q 'cpu7' '$work/dump'"
# Record to record (-U): PCP 7 interpolates no value at an archive's first
# sample, so at 1-second steps it has no rate from 3 samples a second apart.
pmval -U "$work/archive" kernel.all.cpu.user > "$work/pmval.archive" 2>&1
check "rates replay from the archive" values_within "$work/pmval.archive" 1.2 2.35 1

# An archive as upstream's agent would have written it (its types), rewritten
# by the shipped rule, must have this agent's metadata and the same values.
{ sed -n 's/^metric \([0-9.]*\) { type -> \(U32\|U64\) }.*/metric \1 { type -> 32 }/p' "$src/pmlogrewrite/darwin.conf"
  echo 'metric 78.19.4 { type -> U32 sem -> INSTANT }'      # vfs.vnodes.recycled
  echo 'metric 78.21.0 { sem -> INSTANT }'                   # ipc.mbuf.clusters
} > "$work/to-upstream.conf"
rm -f "$work"/upstream.* "$work"/rewritten.*
"$PCP_BINADM_DIR/pmlogrewrite" -c "$work/to-upstream.conf" "$work/archive" "$work/upstream" 2>&1
"$PCP_BINADM_DIR/pmlogrewrite" -c "$src/pmlogrewrite/darwin.conf" "$work/upstream" "$work/rewritten" 2>&1
pminfo -a "$work/upstream" -d mem.pages.faults vfs.vnodes.recycled > "$work/upstream.desc" 2>&1
pminfo -a "$work/rewritten" -d mem.pages swap mem.pageins mem.pageouts vfs ipc > "$work/rewritten.desc" 2>&1
pminfo -a "$work/archive" -d mem.pages swap mem.pageins mem.pageouts vfs ipc > "$work/original.desc" 2>&1
check "the rewrite rules turn upstream's types and semantics into this agent's" sh -c "grep -q '32-bit int' '$work/upstream.desc' &&
    grep -A2 '^vfs.vnodes.recycled' '$work/upstream.desc' | grep -q 'Semantics: instant' &&
    cmp -s '$work/original.desc' '$work/rewritten.desc'"
pmdumplog "$work/archive" mem.pages.faults swap.pagesin vfs.vnodes.recycled | grep -v '^archive\|^Log' > "$work/original.values"
pmdumplog "$work/rewritten" mem.pages.faults swap.pagesin vfs.vnodes.recycled | grep -v '^archive\|^Log' > "$work/rewritten.values"
check "the rewritten archive keeps the values" sh -c "[ -s '$work/original.values' ] && cmp -s '$work/original.values' '$work/rewritten.values'"

# An archive as this agent wrote it before it served upstream's cluster 27
# (memory pressure as cluster 100), rewritten by the shipped rule: upstream's
# PMIDs and names, the same values, and no level_name.
printf '%s\n' 'metric 78.27.0 { pmid -> 78.100.0 }' \
    'metric 78.27.1 { pmid -> 78.100.1 name -> mem.pressure.level_name }' \
    'metric 78.27.2 { pmid -> 78.100.2 name -> mem.pressure.free_percent }' > "$work/to-cluster-100.conf"
rm -f "$work"/cluster-100.* "$work"/cluster-27.*
"$PCP_BINADM_DIR/pmlogrewrite" -c "$work/to-cluster-100.conf" "$work/archive" "$work/cluster-100" 2>&1
"$PCP_BINADM_DIR/pmlogrewrite" -c "$src/pmlogrewrite/darwin.conf" "$work/cluster-100" "$work/cluster-27" 2>&1
pminfo -m -a "$work/cluster-100" mem.pressure > "$work/cluster-100.names" 2>&1
pminfo -m -a "$work/cluster-27" mem.pressure > "$work/cluster-27.names" 2>&1
check "the rewrite rule moves memory pressure from cluster 100 to upstream's 27" sh -c \
    "grep -q 'free_percent PMID: 78.100.2' '$work/cluster-100.names' &&
     [ \"\$(cat '$work/cluster-27.names')\" = \"\$(printf 'mem.pressure.level PMID: 78.27.0\nmem.pressure.available PMID: 78.27.2')\" ]"
pmdumplog "$work/archive" mem.pressure.level mem.pressure.available | grep -v '^archive\|^Log' > "$work/pressure.values"
pmdumplog "$work/cluster-27" mem.pressure.level mem.pressure.available | grep -v '^archive\|^Log' > "$work/cluster-27.values"
check "the moved memory pressure keeps its values" sh -c \
    "grep -q 'mem.pressure.available): value 28' '$work/pressure.values' && cmp -s '$work/pressure.values' '$work/cluster-27.values'"

printf 'kernel.all.cpu.user > 0 && kernel.all.load #'"'"'1 minute'"'"' > 1 -> print "cpu busy and loaded";\n' > "$work/rules"
pmie -h 127.0.0.1 -c "$work/rules" -t 1 -T 4sec > "$work/pmie.out" 2>&1
check "pmie evaluates a rule over the metrics" grep -q "cpu busy and loaded" "$work/pmie.out"

# A local PMNS naming a PMID the agent does not have makes pmcd pass it on.
printf 'root { bogus }\nbogus { pmid 78:1:999 }\n' > "$work/bogus.pmns"
pminfo -h 127.0.0.1 -n "$work/bogus.pmns" -f bogus.pmid > "$work/badpmid" 2>&1
check "an unknown PMID through pmcd is PM_ERR_PMID" grep -q "Unknown or illegal metric identifier" "$work/badpmid"
pmstore -h 127.0.0.1 kernel.all.hz 5 > "$work/store" 2>&1
check "a store is refused with PM_ERR_PERMISSION" grep -q "No permission" "$work/store"
pmval -h 127.0.0.1 -s 1 -i no-such-cpu kernel.percpu.cpu.user > "$work/badinst" 2>&1
check "an unknown instance is refused" grep -q "instance no-such-cpu not available" "$work/badinst"

printf 'open dso %s darwin_init 78\ngetdesc on\nfetch 78.1.999\ninstance 78.3 9999\nfetch hinv.ncpu\nclose\n' "$module" > "$work/dbpmda.in"
PMDA_DARWIN_SNAPSHOT=$fixtures/apple-silicon.snapshot dbpmda -n "$work/as/root" -ie < "$work/dbpmda.in" > "$work/dbpmda.out" 2>&1
check "dbpmda opens the DSO directly" grep -q "value 8" "$work/dbpmda.out"
check "dbpmda: unknown PMID is PM_ERR_PMID" grep -q "Unknown or illegal metric identifier" "$work/dbpmda.out"
check "dbpmda: unknown instance is PM_ERR_INST" grep -q "Unknown or illegal instance identifier" "$work/dbpmda.out"
storage_checks
hardware_checks
check "pmcd is still healthy" pmcd_alive
stop_pmcd

echo "# CPU levels from an imported ioreg dump (XML form)"
grep -v '^ioreg\[' "$fixtures/apple-silicon.snapshot" | sed '/^sample /,$d' > "$work/imported.snapshot"
"$src/tools/ioreg-import" IODeviceTree:/cpus "$fixtures/ioreg/m2-cpus.xml" >> "$work/imported.snapshot"
sed -n '/^sample /,$p' "$fixtures/apple-silicon.snapshot" | grep -v '^ioreg\[' >> "$work/imported.snapshot"
grep -v '^ioreg\[' "$fixtures/apple-silicon.snapshot" > "$work/no-registry.snapshot"
start_pmcd "$work/imported" "$module" "$work/imported.snapshot" || { not_ok "pmcd starts"; finish; exit 1; }
pminfo -h 127.0.0.1 -l kernel.percpu.cpu.user > "$work/imported.labels" 2>&1
check "levels from the imported dump: cpu0-3 efficiency, cpu4-7 performance" sh -c \
    "[ \$(grep -c -E 'inst \[[0-3] or \"cpu[0-3]\"\] labels .*\"perflevel\":\"efficiency\"' '$work/imported.labels') -eq 4 ] &&
     [ \$(grep -c -E 'inst \[[4-7] or \"cpu[4-7]\"\] labels .*\"perflevel\":\"performance\"' '$work/imported.labels') -eq 4 ]"
stop_pmcd
start_pmcd "$work/no-registry" "$module" "$work/no-registry.snapshot" || { not_ok "pmcd starts"; finish; exit 1; }
pminfo -h 127.0.0.1 -l kernel.percpu.cpu.user > "$work/no-registry.labels" 2>&1
check "without the registry entries no CPU gets a level (the labels came from the dump)" sh -c \
    "grep -q 'cpu0' '$work/no-registry.labels' && ! grep -q perflevel '$work/no-registry.labels'"
stop_pmcd

echo "# Intel fixture: the host-wide idle tick counter wraps at 2^32 during the replay"
start_pmcd "$work/intel" "$module" "$fixtures/intel.snapshot" || { not_ok "pmcd starts"; finish; exit 1; }
pminfo -h 127.0.0.1 -f network.interface.in.bytes > /dev/null 2>&1     # seen before en1's listed counter wraps
# 8 CPUs accrue 800 ticks/s; 168 of them busy (scaled 0.7-1.3): idle is 5.8-6.9 s per second.
pmval -h 127.0.0.1 -t 2 -s 10 kernel.all.cpu.idle > "$work/pmval.idle" 2>&1
check "the idle rate stays right across the kernel counter's wrap" values_within "$work/pmval.idle" 5.7 7.0 9
pminfo -h 127.0.0.1 -f hinv.pagesize hinv.machine > "$work/intel.values"
check "Intel page size and model" sh -c "grep -q 'value 4096' '$work/intel.values' && grep -q MacBookPro16,1 '$work/intel.values'"
pminfo -h 127.0.0.1 -l kernel.percpu.cpu.user > "$work/intel.labels"
check "with one performance level, every Intel CPU is in it" \
    [ "$(grep -c '"perflevel":"performance","perflevel_index":0' "$work/intel.labels")" -eq 8 ]
pminfo -h 127.0.0.1 -f hinv.perflevel.l3cache > "$work/intel.l3"
check "Intel levels report their L3 cache" grep -q 'inst \[0 or "performance"\] value 16777216' "$work/intel.l3"
pmval -h 127.0.0.1 -t 2 -s 4 -i performance kernel.perflevel.cpu.idle > "$work/pmval.intel.level" 2>&1
check "the one level's idle time matches the host's across the wrap" values_within "$work/pmval.intel.level" 5.7 7.0 3
pmval -h 127.0.0.1 -t 1 -s 4 -f 0 network.tcp.insegs > "$work/pmval.tcp" 2>&1
check "readable TCP statistics: segments in at 700/s" values_within_int "$work/pmval.tcp" 695 705 3
pminfo -h 127.0.0.1 -f network.interface.in.bytes network.interface.bytes_truncated > "$work/intel.netif" 2>&1
check "without IFMIB_IFDATA, en1's wrapped truncated bytes have no value, and say why" sh -c \
    "! grep -A4 '^network.interface.in.bytes' '$work/intel.netif' | grep -q '\"en1\"' &&
     grep -A4 '^network.interface.in.bytes' '$work/intel.netif' | grep -q '\"en0\"' &&
     grep -q 'inst \[[0-9]* or \"en1\"\] value 1' '$work/intel.netif' &&
     grep -q 'NET_RT_IFLIST2 byte counters are truncated to 32 bits' '$work/intel/pmcd.log'"
pminfo -h 127.0.0.1 -f thermal hinv.nfan gpu.memory.free gpu.model power.adapter.watts power.energy.cpu \
    power.battery.health power.battery.state > "$work/intel.hw" 2>&1
check "Intel: two fans at 2160 and 1987.5 RPM, fan1 forced" sh -c \
    "grep -A1 '^hinv.nfan' '$work/intel.hw' | grep -q 'value 2' &&
     grep -A2 '^thermal.fan.speed' '$work/intel.hw' | grep -q 'fan1\"\] value 1987.5' &&
     grep -A3 '^thermal.fan.mode' '$work/intel.hw' | grep -q 'fan1\"\] value 1'"
check "Intel: ambient is TA0P (31.75), not the CPU proximity key (58.5); pressure Moderate" sh -c \
    "grep -A1 '^thermal.ambient' '$work/intel.hw' | grep -q 'value 31.75' &&
     grep -A1 '^thermal.cpu.proximity' '$work/intel.hw' | grep -q 'value 58.5' &&
     grep -A1 '^thermal.pressure.state' '$work/intel.hw' | grep -q 'Moderate'"
pminfo -h 127.0.0.1 -f power.system.watts kernel.cpucluster.cycles gpu.pstate.cycles > "$work/intel.power" 2>&1
check "Intel: the whole Mac draws 45.25 W (PSTR, sp96); no clusters, no GPU states" sh -c \
    "grep -A1 '^power.system.watts' '$work/intel.power' | grep -q 'value 45.25\$' &&
     grep -A1 '^kernel.cpucluster.cycles' '$work/intel.power' | grep -q 'No value' &&
     grep -A1 '^gpu.pstate.cycles' '$work/intel.power' | grep -q 'not supported'"
check "Intel: the discrete GPU has 2.5 GiB of VRAM free; energy is not supported; charging from 96 W" sh -c \
    "grep -A3 '^gpu.memory.free' '$work/intel.hw' | grep -q 'gpu1\"\] value 2684354560' &&
     grep -A1 '^power.energy.cpu' '$work/intel.hw' | grep -q 'not supported' &&
     grep -A1 '^power.adapter.watts' '$work/intel.hw' | grep -q 'value 96' &&
     grep -A1 '^power.battery.health' '$work/intel.hw' | grep -q 'value 84' &&
     grep -A1 '^power.battery.state' '$work/intel.hw' | grep -q 'charging'"
stop_pmcd

echo "# A malformed snapshot fails only what it feeds"
broken=$work/broken.snapshot
awk '/^vm.free_count/ && !done {print "vm.free_count lots"; done=1; next}
     /^swap.used/ {next} {print} /^pmda-darwin-snapshot/ {print "%%% garbage line"}' "$fixtures/apple-silicon.snapshot" > "$broken"
line=$(grep -n '^vm.free_count lots' "$broken" | cut -d: -f1)
garbage=$(grep -n '^%%% garbage line' "$broken" | cut -d: -f1)
start_pmcd "$work/broken" "$module" "$broken" || { not_ok "pmcd starts"; finish; exit 1; }
pminfo -h 127.0.0.1 -f mem.freemem swap.used kernel.all.load hinv.ncpu > "$work/broken.values" 2>&1
for _ in 1 2 3; do pminfo -h 127.0.0.1 -f mem swap >/dev/null 2>&1; done
check "the poisoned key's metrics report an error" sh -c "grep -A1 '^mem.freemem' '$work/broken.values' | grep -q 'not currently available'"
check "other clusters keep their values" sh -c "grep -A1 '^kernel.all.load' '$work/broken.values' | grep -q value &&
    grep -A1 '^hinv.ncpu' '$work/broken.values' | grep -q 'value 8'"
check "pmcd's log names the file and line" grep -q "broken.snapshot:$line: vm.free_count" "$work/broken/pmcd.log"
check "stray lines are reported at start" grep -q "broken.snapshot:$garbage: not a snapshot line" "$work/broken/pmcd.log"
check "a missing key is reported by name" grep -q "no swap.used in the snapshot" "$work/broken/pmcd.log"
check "the failure is logged once, not per fetch" sh -c "[ \$(grep -c 'memory: some metrics unavailable' '$work/broken/pmcd.log') -eq 1 ] &&
    ! grep -q 'Fetch callback error' '$work/broken/pmcd.log'"
check "pmcd is still healthy" pmcd_alive
stop_pmcd

echo "# A snapshot whose clock rate is 0 cannot take pmcd down (the agent divides by it)"
zero=$work/zero-hz.snapshot
sed 's/^host.clock_hz .*/host.clock_hz 0/' "$fixtures/apple-silicon.snapshot" > "$zero"
line=$(grep -n '^host.clock_hz 0' "$zero" | cut -d: -f1)
start_pmcd "$work/zero" "$module" "$zero" || { not_ok "pmcd starts"; finish; exit 1; }
pminfo -h 127.0.0.1 -f kernel.all.cpu.user kernel.percpu.cpu.user mem.util.free kernel.all.load > "$work/zero.values" 2>&1
for _ in 1 2 3; do pminfo -h 127.0.0.1 -f kernel mem >/dev/null 2>&1; done
check "pmcd survives every fetch" pmcd_alive
check "what needs the clock rate or page size errs; the load average keeps its value" sh -c \
    "grep -A1 '^kernel.all.cpu.user' '$work/zero.values' | grep -q 'not currently available' &&
     grep -A1 '^kernel.all.load' '$work/zero.values' | grep -q value"
check "pmcd's log names the line once, as a fact of the host that is missing" sh -c \
    "[ \$(grep -c 'zero-hz.snapshot:$line: host.clock_hz: 0' '$work/zero/pmcd.log') -eq 1 ] &&
     grep -q 'hinv: some metrics unavailable: .*zero-hz.snapshot:$line: host.clock_hz: 0' '$work/zero/pmcd.log'"
stop_pmcd

echo "# Not a Mac and no snapshot"
start_pmcd "$work/none" "$module" "" || { not_ok "pmcd starts without a data source"; finish; exit 1; }
check "pmcd's log says a snapshot is needed" grep -q "not a Mac.*PMDA_DARWIN_SNAPSHOT" "$work/none/pmcd.log"
pminfo -h 127.0.0.1 -f kernel.all.load > "$work/none.values" 2>&1
check "metrics report an error, not zeros" sh -c "! grep -q value '$work/none.values'"
for _ in 1 2 3; do pminfo -h 127.0.0.1 -f hinv kernel mem >/dev/null 2>&1; done
check "pmcd's log stays quiet across fetches" sh -c "! grep -q 'Fetch callback error' '$work/none/pmcd.log' &&
    [ \$(grep -c 'darwin:' '$work/none/pmcd.log') -eq 1 ]"
check "pmcd is still healthy" sh -c "kill -0 $pmcd_pid && pminfo -h 127.0.0.1 -d hinv.ncpu >/dev/null"
stop_pmcd

finish
