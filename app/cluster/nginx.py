"""The nginx configuration in front of the nodes (scripts/cluster.sh, the tests, the benchmark;
deploy/nginx-cluster.conf is the same for docker compose).

Any request goes to any node (``proxy_next_upstream`` skips a dead one).  A node answers a
request for a room another node owns with ``X-Accel-Redirect: /_node/HOST:PORT/path``, and
the internal ``/_node/`` location makes the request again, upgrade included, to that node.
Per-address connection limits live here, where every node's connections are counted.
"""

from __future__ import annotations

from collections.abc import Sequence

_PROXY = """
        proxy_http_version 1.1;
        proxy_set_header Upgrade $http_upgrade;
        proxy_set_header Connection $connection_upgrade;
        proxy_set_header Host $http_host;
        proxy_set_header X-Forwarded-For $remote_addr;
        proxy_set_header X-Forwarded-Proto $scheme;
        proxy_read_timeout 3600s;
        proxy_send_timeout 3600s;
        proxy_buffering off;"""


def server_block(listen: str, upstream: str, *, connections_per_address: int = 300) -> str:
    return f"""
    map $http_upgrade $connection_upgrade {{
        default upgrade;
        ''      '';
    }}
    limit_conn_zone $binary_remote_addr zone=uno_per_address:10m;

    server {{
        listen {listen};
        limit_conn uno_per_address {connections_per_address};
        client_max_body_size 16k;

        location / {{
            proxy_pass http://{upstream};
            proxy_next_upstream error timeout http_502;
            proxy_connect_timeout 2s;{_PROXY}
        }}

        # A room's request sent on to the node that owns it (app/cluster/routing.py).
        location ~ ^/_node/(?<uno_node>[0-9A-Za-z.:_-]+)/(?<uno_method>[A-Z]+)(?<uno_path>/.*)$ {{
            internal;
            proxy_pass http://$uno_node$uno_path$is_args$args;
            proxy_method $uno_method;
            proxy_set_header X-Uno-Routed 1;
            proxy_connect_timeout 2s;{_PROXY}
        }}
    }}
"""


def config(listen: str, nodes: Sequence[str], *, prefix: str, connections_per_address: int = 300) -> str:
    """A whole nginx.conf for nodes on this machine (``prefix``: where nginx keeps its files)."""
    servers = "\n".join(f"        server {node} max_fails=1 fail_timeout=2s;" for node in nodes)
    return f"""worker_processes 1;
pid {prefix}/nginx.pid;
error_log {prefix}/error.log warn;
events {{
    worker_connections 30000;
}}
http {{
    access_log off;
    client_body_temp_path {prefix}/body;
    proxy_temp_path {prefix}/proxy;
    fastcgi_temp_path {prefix}/fastcgi;
    uwsgi_temp_path {prefix}/uwsgi;
    scgi_temp_path {prefix}/scgi;
    upstream uno_nodes {{
{servers}
        keepalive 32;
    }}
{server_block(listen, "uno_nodes", connections_per_address=connections_per_address)}
}}
"""
