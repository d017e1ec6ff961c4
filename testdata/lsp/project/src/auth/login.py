from .middleware import check
