//! The sixteen systems of the multi-system catalog: their record counts
//! (those of the Loghub benchmark's templates, rounded up to 1,400 in all),
//! log line prefixes, hand-written templates and the words the other
//! templates are made of.
//!
//! In the templates, `<*>` is a wildcard (`(.*?)` in the record's
//! `messagePattern`), `<+>` a non-empty one (`(.+?)`) and `<#>` digits
//! (`(\d+)`); the record's `errorMessage` shows all three as `<*>`, as
//! Loghub's templates do.

/// One system: where its records go, how many, and its words.
pub struct System {
    /// `owner/repo`: the records' folder and `repo` field.
    pub repo: &'static str,
    /// How many records (hand-written ones included).
    pub count: usize,
    /// Templates written out, among them the specific/general pairs where
    /// the most literal template must win.
    pub seeds: &'static [&'static str],
    /// Nouns of the system's messages, for the generated templates.
    pub nouns: &'static [&'static str],
    /// Components named in the line prefix (logger, daemon, class).
    pub components: &'static [&'static str],
}

pub const SYSTEMS: &[System] = &[
    System {
        repo: "distributed/hdfs",
        count: 16,
        seeds: &[
            "Receiving block <*> src: <*> dest: <*>",
            "Received block <*> of size <#> from <*>",
            "Received <*>",
            "PacketResponder <#> for block <*> terminating",
            "BLOCK* NameSystem.addStoredBlock: blockMap updated: <*> is added to <*> size <#>",
            "BLOCK* NameSystem.allocateBlock: <*>. <*>",
            "Deleting block <*> file <*>",
            "Verification succeeded for <*>",
            "<*> Served block <*> to <*>",
            "<*>:Got exception while serving <*> to <*>:",
        ],
        nouns: &["block", "DataNode", "blockMap", "replica", "NameSystem", "PacketResponder", "datanode storage"],
        components: &["dfs.DataNode$PacketResponder", "dfs.FSNamesystem", "dfs.DataNode$DataXceiver", "dfs.FSDataset"],
    },
    System {
        repo: "distributed/hadoop",
        count: 117,
        seeds: &[
            "Created MRAppMaster for application <*>",
            "Executing with tokens:",
            "Kind: YARN_AM_RM_TOKEN, Service: , Ident: (appAttemptId { application_id { id: <#> cluster_timestamp: <#> } attemptId: <#> } keyId: <#>)",
            "Using mapred newApiCommitter.",
            "OutputCommitter set in config null",
            "Address change detected. Old: <*> New: <*>",
            "Retrying connect to server: <*>. Already tried <#> time(s); maxRetries=<#>",
            "Progress of TaskAttempt <*> is : <*>",
            "TaskAttempt: [<*>] using containerId: [<*> on NM: [<*>]",
            "Task succeeded with attempt <*>",
            "Num completed Tasks: <#>",
            "Assigned container <*> to <*>",
            "Assigned <*>",
            "ERROR IN CONTACTING RM.",
        ],
        nouns: &["container", "TaskAttempt", "job", "reducer", "mapper", "shuffle", "committer", "RMContainerAllocator", "event queue", "history file"],
        components: &["[main] org.apache.hadoop.mapreduce.v2.app.MRAppMaster", "[RMCommunicator Allocator] org.apache.hadoop.mapreduce.v2.app.rm.RMContainerAllocator", "[AsyncDispatcher event handler] org.apache.hadoop.mapreduce.v2.app.job.impl.TaskAttemptImpl", "[IPC Server handler 9 on 62270] org.apache.hadoop.mapred.TaskAttemptListenerImpl"],
    },
    System {
        repo: "distributed/spark",
        count: 36,
        seeds: &[
            "Starting task <*> in stage <*> (TID <#>, <*>, partition <#>, PROCESS_LOCAL, <#> bytes)",
            "Starting <*>",
            "Finished task <*> in stage <*> (TID <#>) in <#> ms on <*> (<#>/<#>)",
            "Running task <*> in stage <*> (TID <#>)",
            "Block <*> stored as values in memory (estimated size <*>, free <*>)",
            "Found block <*> locally",
            "Partition <*> not found, computing it",
            "Changing view acls to: <*>",
            "Changing modify acls to: <*>",
            "Successfully started service '<*>' on port <#>.",
            "Registered signal handlers for [TERM, HUP, INT]",
            "Started reading broadcast variable <#>",
        ],
        nouns: &["executor", "broadcast variable", "block manager", "shuffle file", "stage", "RDD", "driver"],
        components: &["spark.SecurityManager", "executor.Executor", "storage.BlockManager", "storage.MemoryStore", "broadcast.TorrentBroadcast"],
    },
    System {
        repo: "distributed/zookeeper",
        count: 50,
        seeds: &[
            "Received connection request /<*>:<#>",
            "Notification: <#> (n.leader), <*> (n.zxid), <#> (n.round), LOOKING (n.state), <#> (n.sid), <*> (n.peerEPoch), LOOKING (my state)",
            "Accepted socket connection from /<*>:<#>",
            "Client attempting to establish new session at /<*>:<#>",
            "Established session <*> with negotiated timeout <#> for client /<*>:<#>",
            "Closed socket connection for client /<*>:<#> which had sessionid <*>",
            "Closed socket connection for client /<*>:<#> (no session established for client)",
            "caught end of stream exception",
            "Cannot open channel to <#> at election address /<*>:<#>",
            "Expiring session <*>, timeout of <#>ms exceeded",
            "Processed session termination for sessionid: <*>",
        ],
        nouns: &["session", "quorum peer", "leader election", "snapshot", "follower", "channel", "zxid"],
        components: &["QuorumPeer[myid=1]/0:0:0:0:0:0:0:0:2181:FastLeaderElection@774", "NIOServerCxn.Factory:0.0.0.0/0.0.0.0:2181:NIOServerCnxnFactory@197", "SyncThread:0:FileTxnLog@199", "ProcessThread(sid:0 cport:-1)::PrepRequestProcessor@476"],
    },
    System {
        repo: "distributed/openstack",
        count: 43,
        seeds: &[
            "<*> \"GET <*>\" status: <#> len: <#> time: <*>",
            "<*> \"POST <*>\" status: <#> len: <#> time: <*>",
            "[instance: <*>] VM Started (Lifecycle Event)",
            "[instance: <*>] VM Paused (Lifecycle Event)",
            "[instance: <*>] Took <*> seconds to spawn the instance on the hypervisor.",
            "[instance: <*>] Terminating instance",
            "[instance: <*>] <*>",
            "Running periodic task ComputeManager._run_image_cache_manager_pass",
            "image <*> at (<*>): checking",
            "Active base files: <*>",
        ],
        nouns: &["instance", "hypervisor", "image cache", "compute node", "network info cache", "volume", "flavor"],
        components: &["nova.osapi_compute.wsgi.server", "nova.compute.manager", "nova.virt.libvirt.imagecache", "nova.metadata.wsgi.server"],
    },
    System {
        repo: "supercomputer/bgl",
        count: 125,
        seeds: &[
            "instruction cache parity error corrected",
            "generating core.<#>",
            "<*> double-hummer alignment exceptions",
            "CE sym <#>, at <*>, mask <*>",
            "data TLB error interrupt",
            "machine check interrupt (bit=<*>): L2 dcache unit data parity error",
            "ciod: failed to read message prefix on control stream (CioStream socket to <*>:<#>",
            "ciod: Error loading <*>: invalid or missing program image, No such file or directory",
            "total of <#> ddr error(s) detected and corrected",
            "rts: kernel terminated for reason <#>",
        ],
        nouns: &["ddr", "torus receiver", "L3 ecc", "midplane", "node card", "link card", "ciod", "instruction cache"],
        components: &["RAS KERNEL", "RAS APP", "RAS MMCS", "RAS LINKCARD"],
    },
    System {
        repo: "supercomputer/hpc",
        count: 46,
        seeds: &[
            "PSU status ( on off )",
            "Fan speeds ( <*> <*> <*> <*> <*> <*> )",
            "ClusterFileSystem: There is no server for ServerFileSystem domain <*>",
            "Component State Change: Component \\042<*>\\042 is in the unavailable state (HWID=<#>)",
            "Command has completed successfully",
            "risBoot command Pending",
            "Link error on broadcast tree Interconnect-<*>",
            "node-<#> has detected an available network connection on network <*> via interface <*>",
        ],
        nouns: &["node", "interconnect", "boot", "psu", "fan", "switch module", "link"],
        components: &["unix.hw state_change.unavailable", "node psu", "action start", "boot_cmd new"],
    },
    System {
        repo: "supercomputer/thunderbird",
        count: 155,
        seeds: &[
            "session opened for user root by (uid=0)",
            "session closed for user root",
            "(root) CMD (run-parts /etc/cron.hourly)",
            "synchronized to <*>, stratum <#>",
            "Local disk reports error: <*>",
            "DHCPREQUEST on eth1 to <*> port <#>",
            "DHCPACK from <*>",
            "bound to <*> -- renewal in <#> seconds.",
            "check pass; user unknown",
            "authentication failure; logname= uid=0 euid=0 tty=NODEVssh ruser= rhost=<*>",
        ],
        nouns: &["cron job", "dhcp lease", "ntp server", "ib port", "pbs_mom", "local disk", "eth1"],
        components: &["crond(pam_unix)[2915]", "ntpd[2144]", "dhclient[1998]", "kernel", "sshd(pam_unix)[19939]"],
    },
    System {
        repo: "os/windows",
        count: 50,
        seeds: &[
            "Loaded Servicing Stack v<*> with Core: <*>",
            "SQM: Initializing online with Windows opt-in: False",
            "SQM: Cleaning up report files older than 10 days.",
            "SQM: Requesting upload of all unsent reports.",
            "SQM: Failed to start upload with file pattern: <*>, flags: <*> [HRESULT = <*> - E_FAIL]",
            "Session: <*> initialized by client WindowsUpdateAgent.",
            "Read out cached package applicability for package: <*>, ApplicableState: <#>, CurrentState:<#>",
            "Warning: Unrecognized packageExtended attribute.",
            "Expecting attribute name [HRESULT = <*> - CBS_E_MANIFEST_INVALID_ITEM]",
        ],
        nouns: &["servicing stack", "package", "manifest", "TrustedInstaller", "session", "update agent", "component store"],
        components: &["CBS", "CSI", "TrustedInstaller", "WindowsUpdateAgent"],
    },
    System {
        repo: "os/linux",
        count: 122,
        seeds: &[
            "check pass; user unknown",
            "authentication failure; logname= uid=0 euid=0 tty=NODEVssh ruser= rhost=<*>",
            "authentication failure; logname= uid=0 euid=0 tty=NODEVssh ruser= rhost=<*>  user=root",
            "session opened for user <*> by (uid=0)",
            "session closed for user <*>",
            "connection from <*> (<*>) at <*>",
            "ALERT exited abnormally with [1]",
            "Kerberos authentication failed",
            "klogd startup succeeded",
            "Linux version 2.6.5-1.358 (bhcompile@bugs.build.redhat.com) (gcc version 3.3.3 20040412 (Red Hat Linux 3.3.3-7)) #1 Sun May 16 20:34:50 EDT 2004",
            "<*> startup succeeded",
            "<*> shutdown succeeded",
        ],
        nouns: &["cups", "syslogd", "irqbalance", "portmap", "sendmail", "xinetd", "gpm", "smartd", "kernel module"],
        components: &["combo sshd(pam_unix)[19939]", "combo ftpd[24085]", "combo su(pam_unix)[21416]", "combo kernel", "combo syslogd 1.4.1"],
    },
    System {
        repo: "os/mac",
        count: 360,
        seeds: &[
            "ARPT: <*>: wl0: setup_keepalive: interval <#>, retry_interval <#>, retry_count <#>",
            "ARPT: <*>: wl0: MDNS: IPV4 Addr: <*>",
            "ARPT: <*>: wl0: wl_update_tcpkeep_seq: Original Seq: <#>, Ack: <#>, Win size: <#>",
            "AppleCamIn::systemWakeCall - messageType = <*>",
            "AppleThunderboltNHIType2::prePCIWake - power up complete - took <#> us",
            "en0: BSSID changed to <*>",
            "IO80211AWDLPeerManager::setAwdlSuspendedMode() Suspending AWDL, enterQuietMode(true)",
            "Wake reason: <*>",
            "hibernate_page_list_setall(preflight <#>) start",
            "<*> Sandbox: <*> deny(1) <*>",
            "<*>: <*>",
            "[<*>] Error Domain=<*> Code=<*> \"<*>\" UserInfo=<*>",
        ],
        nouns: &["wl0", "AWDL", "sandbox", "bluetooth", "thunderbolt", "display", "power assertion", "launch agent", "keychain", "Spotlight", "iCloud", "Wi-Fi"],
        components: &["kernel[0]", "com.apple.CDScheduler[43]", "QQ[10018]", "Microsoft Word[14463]", "corecaptured[31174]", "symptomsd[215]", "WindowServer[184]"],
    },
    System {
        repo: "os/android",
        count: 170,
        seeds: &[
            "printFreezingDisplayLogsopening app wtoken = AppWindowToken{<*> token=Token{<*> ActivityRecord{<*> u0 <*> t<#>}}}, allDrawn= false, startingDisplayed =  false, startingMoved =  false, isRelaunching =  false",
            "acquire lock=<*>, flags=<*>, tag=\"<*>\", name=<*>, ws=<*>, uid=<#>, pid=<#>",
            "release:lock=<*>, flg=0x0, tag=\"<*>\", name=<*>\", ws=<*>, uid=<#>, pid=<#>",
            "Skipping AppWindowToken{<*> token=Token{<*> ActivityRecord{<*> u0 <*> t<#>}}} -- going to hide",
            "setSystemUiVisibility vis=<*> mask=<*> oldVal=<*> newVal=<*> diff=<*> fullscreenStackVis=<*> dockedStackVis=<*>, fullscreenStackBounds=Rect(<*>), dockedStackBounds=Rect(<*>)",
            "getTasks: max=<#>, flags=<#>",
            "Skipping <*>",
            "userActivityNoUpdateLocked: eventTime=<#>, event=<#>, flags=<*>, uid=<#>",
            "ready=true,policy=<#>,wakefulness=<#>,wksummary=<*>,uasummary=<*>,bootcompleted=true,boostinprogress=false,waitmodeenable=false,mode=false,manual=<#>,auto=<#>,adj=<*>userId=<#>",
        ],
        nouns: &["window token", "activity", "wakelock", "display", "input channel", "surface", "task stack", "power hint", "notification", "keyguard"],
        components: &["WindowManager", "PowerManagerService", "ActivityManager", "DisplayPowerController", "InputDispatcher", "PhoneStatusBar"],
    },
    System {
        repo: "mobile/healthapp",
        count: 75,
        seeds: &[
            "onStandStepChanged <#>",
            "onExtend:<#> <#> <#> <#>",
            "processHandleBroadcastAction action:android.intent.action.SCREEN_ON",
            "flush sensor data",
            "getTodayTotalDetailSteps = <*>",
            "setTodayTotalDetailSteps=<*>",
            "REPORT : <#> <#> <#> <#>",
            "calculateCaloriesWithCache totalCalories=<#>",
            "<*>=<*>",
        ],
        nouns: &["step counter", "sensor data", "calories", "altitude", "standing time", "health data"],
        components: &["Step_LSC", "Step_StandReportReceiver", "Step_SPUtils", "Step_ExtSDM", "HiH_HiSyncControl"],
    },
    System {
        repo: "server/apache",
        count: 6,
        seeds: &[
            "jk2_init() Found child <#> in scoreboard slot <#>",
            "workerEnv.init() ok <*>",
            "mod_jk child workerEnv in error state <#>",
            "[client <*>] Directory index forbidden by rule: <*>",
            "jk2_init() Can't find child <#> in scoreboard",
            "mod_jk child init <#> <*>",
        ],
        nouns: &["scoreboard", "workerEnv", "mod_jk child"],
        components: &["notice", "error"],
    },
    System {
        repo: "server/openssh",
        count: 27,
        seeds: &[
            "Failed password for <*> from <*> port <#> ssh2",
            "Failed password for invalid user <*> from <*> port <#> ssh2",
            "Accepted password for <*> from <*> port <#> ssh2",
            "Invalid user <*> from <*>",
            "input_userauth_request: invalid user <*> [preauth]",
            "Received disconnect from <*>: <#>: <*> [preauth]",
            "Connection closed by <*> [preauth]",
            "reverse mapping checking getaddrinfo for <*> [<*>] failed - POSSIBLE BREAK-IN ATTEMPT!",
            "pam_unix(sshd:auth): authentication failure; logname= uid=0 euid=0 tty=ssh ruser= rhost=<*>",
            "pam_unix(sshd:auth): check pass; user unknown",
            "PAM service(sshd) ignoring max retries; <#> > 3",
            "Disconnecting: Too many authentication failures for <*> [preauth]",
            "error: Received disconnect from <*>: <#>: <*> [preauth]",
        ],
        nouns: &["authentication", "session", "preauth", "key exchange", "channel"],
        components: &["LabSZ sshd[24200]", "LabSZ sshd[24198]", "LabSZ sshd[30572]"],
    },
    System {
        repo: "server/proxifier",
        count: 8,
        seeds: &[
            "<*> open through proxy <*> HTTPS",
            "<*> close, <*> bytes sent, <*> bytes received, lifetime <*>",
            "<*> close, <*> bytes (<*>) sent, <*> bytes (<*>) received, lifetime <*>",
            "<*> error : Could not connect through proxy <*> - Proxy server cannot establish a connection with the target, status code <#>",
            "<*> error : A connection request was canceled before the completion.",
            "<*> open directly",
            "<*> close, <*> bytes sent, <*> bytes received, lifetime <*> (<*>)",
            "<*> error : Could not connect to proxy <*> - connection attempt failed with error <#>",
        ],
        nouns: &["proxy", "connection"],
        components: &["chrome.exe", "svchost.exe", "Dropbox.exe", "WeChat.exe", "git-remote-https.exe"],
    },
];

/// Words that open a generated message; several systems share them, as
/// real logs do.
pub const OPENERS: &[&str] = &[
    "Failed to",
    "Unable to",
    "Starting",
    "Stopping",
    "Received",
    "Sending",
    "Successfully",
    "Error while",
    "Exception while",
    "Timed out waiting for",
    "Could not",
    "Cannot",
    "Invalid",
    "Removing",
    "Adding",
    "Registering",
    "Loading",
    "Saving",
    "Closing",
    "Opening",
    "Updating",
    "Deleting",
    "Creating",
    "Initializing",
    "Shutting down",
    "Connecting to",
    "Disconnected from",
    "Reading",
    "Writing",
    "Verifying",
    "Scheduling",
    "Cleaning up",
    "Waiting for",
    "Processing",
    "Ignoring",
    "Skipping",
    "Retrying",
];

/// Words between a message's nouns.
pub const FILLERS: &[&str] =
    &["the", "new", "local", "remote", "pending", "stale", "default", "current", "all", "next", "last", "cached"];

/// Literal text between two placeholders: short and shared by many templates.
pub const CONNECTORS: &[&str] = &[
    " to ",
    " from ",
    " of size ",
    ": ",
    " = ",
    ", ",
    " for ",
    " in ",
    " on ",
    " with ",
    " (",
    ") ",
    ".",
    ":",
    " at ",
    " is ",
    "=",
    " -> ",
    " by ",
    " after ",
    " state ",
    " id ",
    ":",
    ":",
    ".",
    ".",
];

/// Endings after the last placeholder.
pub const TAILS: &[&str] = &["", "", "", "", ".", ")", " ms", " bytes", " failed", " succeeded", " seconds", "]"];

/// Endings of a message without placeholders.
pub const PLAIN_TAILS: &[&str] =
    &["", "", ".", " completed", " succeeded", " failed", " (no error)", ", retrying", ": done", " is disabled"];

/// Templates that are almost all wildcards (Loghub has a few such
/// catch-alls; with more, most lines would have several candidates whatever
/// the engine).
pub const CATCH_ALLS: &[&str] = &["<*> <*>: <*>", "<*>=<*>", "<*> (<*>)"];

/// The openers of general templates (`Received <*>`), which pair with the
/// specific templates that start with them.
pub const GENERAL: &[&str] =
    &["Received", "Starting", "Failed to", "Skipping", "Removing", "Connecting to", "Closing", "Waiting for"];
