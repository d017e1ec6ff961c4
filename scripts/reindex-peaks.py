#!/usr/bin/env python3
"""Where a reindex's memory peaks (issue 53): a developer's driver.

    python3 scripts/reindex-peaks.py BIN ROOT CACHE N

Starts `BIN lsp` on ROOT with WAYFIND_CACHE_DIR=CACHE, waits until its
symbol and content passes are done, then asks N reindexes (each after an
empty file made under ROOT/team0/added-by-reidx, removed at the end).
RSS and the kernel's maximum are read every 5 ms; each rise of the
maximum past 440 MB is printed with the time (beside the server's log
lines, timed the same way), and a new peak past 430 MB reads
/proc/PID/smaps for what is mapped. Run it for a cold cache with N=0
first, then again on the same cache for a warm server.
"""
import json, os, subprocess, sys, threading, time
bin_, root, cache, n = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
env = dict(os.environ, WAYFIND_CACHE_DIR=cache)
p = subprocess.Popen([bin_, "lsp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env)
lock = threading.Lock(); pending = {}; nid = [0]; t0 = time.time()
def ts(): return time.strftime("%H:%M:%S", time.localtime()) + ".%03d" % (int(time.time()*1000) % 1000)
def send(obj):
    b = json.dumps(obj).encode()
    p.stdin.write(b"Content-Length: %d\r\n\r\n" % len(b) + b); p.stdin.flush()
def reader():
    while True:
        h = {}
        while True:
            line = p.stdout.readline()
            if not line: return
            line = line.strip()
            if not line: break
            k, v = line.split(b":", 1); h[k.lower()] = int(v)
        msg = json.loads(p.stdout.read(h[b"content-length"]))
        if "id" in msg and "method" not in msg:
            ev = pending.pop(msg["id"]); ev[1] = msg; ev[0].set()
        elif msg.get("method") == "window/logMessage":
            print(ts(), msg["params"]["message"][:200], flush=True)
        elif "id" in msg:
            send({"jsonrpc": "2.0", "id": msg["id"], "result": None})
threading.Thread(target=reader, daemon=True).start()
def call(m, params):
    nid[0] += 1; ev = [threading.Event(), None]; pending[nid[0]] = ev
    send({"jsonrpc": "2.0", "id": nid[0], "method": m, "params": params}); ev[0].wait(); return ev[1].get("result")
peak = [0, "", 0, ""]; done = [False]; detailed = [0]; lasthwm = [0]
def sample():
    while not done[0]:
        try:
            d = {l.split(":")[0]: l.split()[1] for l in open("/proc/%d/status" % p.pid) if l.startswith(("VmRSS", "RssAnon", "RssFile"))}
        except Exception: return
        r = int(d["VmRSS"]) // 1024
        hwm = int([l for l in open("/proc/%d/status" % p.pid) if l.startswith("VmHWM")][0].split()[1]) // 1024
        if hwm >= 440 and hwm >= lasthwm[0] + 4:
            lasthwm[0] = hwm; print(ts(), "HWM", hwm, "rss", r, "anon", int(d["RssAnon"]) // 1024, "file", int(d["RssFile"]) // 1024, flush=True)
        if r > peak[0]:
            files = peak[3] if len(peak) > 3 else ""
            if r >= 430 and r >= detailed[0] + 5:
                detailed[0] = r; by = {}; cur = None
                for l in open("/proc/%d/smaps" % p.pid):
                    f = l.split()
                    if len(f) >= 6 and "-" in f[0] and not l.startswith(("Rss", "Size")): cur = f[5]
                    elif len(f) >= 2 and f[0] == "Rss:" and cur: by[cur] = by.get(cur, 0) + int(f[1]) // 1024
                files = " ".join("%s:%d" % (os.path.basename(k), v) for k, v in sorted(by.items(), key=lambda x: -x[1]) if v >= 4)
            peak[:] = [r, ts(), int(d["RssAnon"]) // 1024, files]
        time.sleep(0.005)
threading.Thread(target=sample, daemon=True).start()
call("initialize", {"processId": os.getpid(), "rootUri": "file://" + root, "capabilities": {}})
send({"jsonrpc": "2.0", "method": "initialized", "params": {}})
while True:
    st = call("find/status", {})
    if st.get("symbolsReady") and st.get("contentReady"): break
    time.sleep(0.5)
print(ts(), "SETTLED", json.dumps(st)[:200], "peak so far", peak, flush=True)
peak[:] = [0, "", 0, ""]; detailed[0] = 0
d = os.path.join(root, "team0", "added-by-reidx"); os.makedirs(d, exist_ok=True)
for i in range(n):
    open(os.path.join(d, "r%03d.go" % i), "w").close()
    t = time.time(); call("find/reindex", {}); print(ts(), "REINDEX %d %.1f s; peak so far %s" % (i, time.time() - t, peak), flush=True)
time.sleep(15)
print(ts(), "PEAK", peak, "HWM", [l for l in open("/proc/%d/status" % p.pid) if l.startswith("VmHWM")])
done[0] = True
import shutil; shutil.rmtree(d)
p.kill()
