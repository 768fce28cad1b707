"""The shop service of protojsonx-transcode/e2e/proto/shop/v1/shop.proto
in Python grpcio: the upstream of ecosystem/gateway-python/run.sh, which puts
`protojsonx gateway` in front of it.

Usage: python server.py GENERATED_DIR
Serves on a free loopback port and prints `listening on 127.0.0.1:PORT`.
Every answer is made from the request alone, so the gateway's transcript is
the same on every run. Methods not written here answer UNIMPLEMENTED.
"""

import signal
import sys
from concurrent import futures

import grpc
from google.protobuf import any_pb2
from google.rpc import status_pb2
from grpc_status import rpc_status

sys.path.insert(0, sys.argv[1])
from shop.v1 import shop_pb2, shop_pb2_grpc  # noqa: E402

CODES = {code.value[0]: code for code in grpc.StatusCode}


def item_of(name):
    """The item GetItem answers for `name`."""
    item = shop_pb2.Item(
        name=name,
        title="title of " + name,
        stock=9007199254740993,
        tags=["a", "b"],
        kind=shop_pb2.BOOK,
    )
    item.added.FromJsonString("2024-05-01T12:00:00.500Z")
    return item


class Shop(shop_pb2_grpc.ShopServicer):
    def GetItem(self, request, context):
        if request.name.endswith("/missing"):
            context.abort(grpc.StatusCode.NOT_FOUND, request.name + " does not exist")
        return item_of(request.name)

    def ItemName(self, request, context):
        return self.GetItem(request, context)

    def ItemTags(self, request, context):
        return self.GetItem(request, context)

    def CountItems(self, request, context):
        return self.GetItem(request, context)

    def ListItems(self, request, context):
        trace = [(k, v) for k, v in context.invocation_metadata() if k == "x-trace"]
        if trace:
            context.send_initial_metadata(trace)
        return shop_pb2.ListItemsResponse(request=request)

    def CreateItem(self, request, context):
        item = shop_pb2.Item()
        item.CopyFrom(request.item)
        item.name = "%s/items/%s" % (request.parent, request.request_id)
        return item

    def WatchItems(self, request, context):
        if request.count < 0:
            context.abort(grpc.StatusCode.INVALID_ARGUMENT, "count is negative")
        for i in range(request.count):
            yield shop_pb2.Item(name="%s/items/%d" % (request.parent, i), stock=i)
        if request.fail_code:
            context.abort(CODES[request.fail_code], "the watch failed")

    def Fail(self, request, context):
        detail = any_pb2.Any()
        detail.Pack(shop_pb2.Item(name="detail", tags=["from python"]))
        status = status_pb2.Status(
            code=request.code, message=request.message, details=[detail]
        )
        context.abort_with_status(rpc_status.to_status(status))


def main():
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=4))
    shop_pb2_grpc.add_ShopServicer_to_server(Shop(), server)
    port = server.add_insecure_port("127.0.0.1:0")
    server.start()
    signal.signal(signal.SIGTERM, lambda *_: server.stop(0))
    print("listening on 127.0.0.1:%d" % port, flush=True)
    server.wait_for_termination()


if __name__ == "__main__":
    main()
