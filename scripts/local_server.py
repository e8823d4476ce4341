"""Runs llama.cpp's server from the xllamacpp wheel on 127.0.0.1 until SIGTERM, SIGINT or SIGHUP.

    python local_server.py --model FILE.gguf --port 8012 --alias NAME [--threads N] [--poll N]
                           [--temp T] [--repeat-penalty P] [--dry M]

scripts/local-model copies this file into the data directory and starts it with the virtualenv's own
python (so that `/proc/PID/exe` and argv[1] say it is ours); it is not meant to be run by hand. The
server speaks llama-server's HTTP API: GET /health, GET /v1/models, POST /v1/chat/completions (streaming,
`response_format` with a JSON schema). Its log (llama.cpp's own lines) goes to stderr.
"""

import argparse
import os
import signal
import sys


def main() -> int:
    parser = argparse.ArgumentParser(description="llama.cpp's server for lessonplan --local")
    parser.add_argument("--model", required=True, help="the .gguf file")
    parser.add_argument("--port", required=True, type=int, help="port on 127.0.0.1")
    parser.add_argument("--alias", required=True, help="the model name /v1/models reports")
    parser.add_argument("--threads", type=int, default=1, help="CPU threads for decoding and prompts")
    parser.add_argument("--poll", type=int, default=0,
                        help="how hard idle worker threads poll for work, 0-100 (0: sleep, do not spin)")
    parser.add_argument("--ctx-size", type=int, default=8192)
    # The sampling settings measured against the plan check (docs/plan-check.md); the defaults are what won.
    parser.add_argument("--temp", type=float, default=0.7, help="sampling temperature (0: greedy)")
    parser.add_argument("--repeat-penalty", type=float, default=1.1, help="penalty on recently used tokens (1: none)")
    parser.add_argument("--dry", type=float, default=0.8, help="DRY multiplier against repeated sequences (0: off)")
    args = parser.parse_args()

    # The wheel's llama.cpp runs its CPU threads with OpenMP, whose barriers ignore `poll` and spin
    # unless told otherwise when the library loads: with poll 0, waiting threads sleep instead, which
    # matters on a small machine busy with other work.
    if args.poll == 0:
        os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

    # Blocked before the server starts its threads, which inherit the mask: the signals then reach
    # only the sigwait below, whichever thread the kernel picks.
    stop_signals = {signal.SIGTERM, signal.SIGINT, signal.SIGHUP}
    signal.pthread_sigmask(signal.SIG_BLOCK, stop_signals)

    import xllamacpp

    params = xllamacpp.CommonParams()
    params.model.path = args.model
    params.hostnames = ["127.0.0.1"]
    params.port = args.port
    params.model_alias = {args.alias}
    params.n_ctx = args.ctx_size
    params.n_parallel = 1
    params.ui = False
    # Web pages from other origins may not use it.
    params.cors_origins = "localhost"
    # Greedy decoding with DRY and a mild repeat penalty: the tiny model otherwise tends to loop
    # until the output limit instead of ending its plan.
    params.sampling.temp = args.temp
    params.sampling.dry_multiplier = args.dry
    params.sampling.penalty_repeat = args.repeat_penalty
    for cpu in (params.cpuparams, params.cpuparams_batch):
        cpu.n_threads = args.threads
        cpu.poll = args.poll

    server = xllamacpp.Server(params)
    print(f"local_server: listening on {server.listening_address} (pid {os.getpid()}, "
          f"{args.threads} thread(s), poll {args.poll})", file=sys.stderr, flush=True)
    received = signal.sigwait(stop_signals)
    print(f"local_server: stopping on {signal.Signals(received).name}", file=sys.stderr, flush=True)
    sys.stderr.flush()
    # The server's threads are not joined: exiting the process ends them.
    os._exit(0)


if __name__ == "__main__":
    sys.exit(main())
