def check(req):
    return True
