"""What the load scripts share: start `fianchetto serve` on a free port, read its memory, run
client threads."""
import re
import subprocess
import threading
import time


def start(binary):
    """Starts the server; returns the process, its host and its port."""
    server = subprocess.Popen([binary, "serve", "--port", "0"], stdout=subprocess.PIPE, text=True)
    m = re.search(r"http://([\d.]+):(\d+)/", server.stdout.readline())
    return server, m.group(1), int(m.group(2))


def rss_mib(server, field="VmRSS"):
    """The server's resident memory, MiB: all of it (`VmRSS`), or only what it allocated
    (`RssAnon`, leaving out the program's code and data pages, read in as they are first
    used)."""
    with open(f"/proc/{server.pid}/status") as f:
        kb = next(int(l.split()[1]) for l in f if l.startswith(field + ":"))
    return kb / 1024


def run_clients(client, count, while_running=None):
    """Runs `client(i)` on `count` threads until all return; `while_running()` is called once
    they have started. Returns the seconds they took."""
    threads = [threading.Thread(target=client, args=(i,)) for i in range(count)]
    start_time = time.time()
    for t in threads:
        t.start()
    if while_running:
        while_running()
    for t in threads:
        t.join()
    return time.time() - start_time
