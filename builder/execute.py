"""Where a build's tasks run (chunk tasks, a sparse search's shards, a spec's
breadth-first arrays): in this process (the default, easiest to debug) or on Dask.

``Dask(scheduler=None, workers=2)`` starts a ``LocalCluster`` of worker processes that
needs no set-up; ``Dask(scheduler="tcp://HOST:PORT")`` uses an existing cluster, whose
workers must reach the same data directory (a shared path).  Both yield each task's
result as it finishes, with a tqdm bar over tasks and an estimate of the time left.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from tqdm import tqdm


class InProcess:
    def run(self, function: Callable, arguments: list[tuple], desc: str = "tasks",
            progress: bool = True) -> Iterator:
        for args in tqdm(arguments, desc=desc, unit="task", disable=not progress,
                         mininterval=1.0):
            yield function(*args)


class Dask:
    def __init__(self, scheduler: str | None = None, workers: int = 2):
        self.scheduler, self.workers = scheduler, workers
        self._client = None

    def client(self):
        if self._client is None:
            from dask.distributed import Client, LocalCluster

            if self.scheduler:
                self._client = Client(self.scheduler)
            else:
                # one kernel thread per worker process: workers share the cores, and
                # numba's own threads in each would oversubscribe them
                import dask

                # without a dashboard nobody reads the workers' profiles: sampling every
                # worker's stack a hundred times a second costs CPU the builds want
                with dask.config.set({"distributed.worker.profile.enabled": False}):
                    cluster = LocalCluster(n_workers=self.workers, threads_per_worker=1,
                                           processes=True, dashboard_address=None,
                                           env={"NUMBA_NUM_THREADS": "1"})
                self._client = Client(cluster)
        return self._client

    def run(self, function: Callable, arguments: list[tuple], desc: str = "tasks",
            progress: bool = True) -> Iterator:
        from dask.distributed import as_completed

        if not arguments:
            return
        client = self.client()
        futures = [client.submit(function, *args, pure=False) for args in arguments]
        with tqdm(total=len(futures), desc=f"{desc} (dask)", unit="task",
                  disable=not progress) as bar:
            for future in as_completed(futures):
                yield future.result()
                bar.update(1)

    def close(self) -> None:
        if self._client is not None:
            cluster = self._client.cluster
            self._client.close()
            if cluster is not None:
                cluster.close()
            self._client = None
