"""Neutron's API under uWSGI, for the local cloud's releases that no longer ship the
eventlet neutron-server (hack/local-neutron.sh runs it with --module
neutron_uwsgi:application).

The application is Neutron's own (neutron.wsgi.api, configured by the --config-file
arguments in --pyargv). Around it, one line per answered request in neutron-server's log,
as the eventlet server of earlier releases wrote it, with the request's context:

    ... INFO neutron.api.wsgi [GLOBAL_ID REQUEST_ID USER PROJECT ...] 127.0.0.1
        "GET /v2.0/networks HTTP/1.1" status: 200  len: 1574 time: 0.0348823

The tests and the bench count Neutron's calls, and find a request ID, in these lines
(test/serverlog); uWSGI's own request log knows neither the request ID nor the project.
"""

import time

from oslo_log import log as logging

from neutron.wsgi.api import application as neutron_application

LOG = logging.getLogger("neutron.api.wsgi")


def application(environ, start_response):
    started = time.monotonic()
    # Before the call: Neutron's URL map moves the path into SCRIPT_NAME as it routes.
    request = '%s %s %s' % (environ.get('REQUEST_METHOD', '-'),
                            environ.get('REQUEST_URI') or environ.get('PATH_INFO', '-'),
                            environ.get('SERVER_PROTOCOL', 'HTTP/1.1'))
    answer = {}

    def recording_start_response(status, headers, exc_info=None):
        answer['status'] = status.split(' ', 1)[0]
        answer['len'] = next((v for k, v in headers if k.lower() == 'content-length'), '-')
        return start_response(status, headers, exc_info)

    body = neutron_application(environ, recording_start_response)
    try:
        return list(body)
    finally:
        close = getattr(body, 'close', None)
        if close is not None:
            close()
        LOG.info('%s "%s" status: %s  len: %s time: %.7f',
                 environ.get('REMOTE_ADDR', '-'), request, answer.get('status', '-'),
                 answer.get('len', '-'), time.monotonic() - started,
                 context=environ.get('neutron.context'))
