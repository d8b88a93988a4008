from django.core import signing
from django.core.exceptions import PermissionDenied, SuspiciousOperation
from django.core.paginator import Paginator
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET

from .forms import ProductForm
from .models import Product


def index(request):
    return render(request, "shop/index.html", {"products": Product.objects.all()})


def product(request, pk):
    return HttpResponse(get_object_or_404(Product, pk=pk).name)


@require_GET
def only_get(request):
    return HttpResponse("ok")


def order_form(request):
    return HttpResponse(f"ordered {len(request.POST)}")


def boom(request):
    raise ValueError("the basket total went negative")


def bad_tag(request):
    return render(request, "shop/bad_tag.html")


def bad_filter(request):
    return render(request, "shop/bad_filter.html", {"title": "x"})


def missing_template(request):
    return render(request, "shop/basket.html")


def bad_reverse(request):
    return redirect(reverse("basket"))


def bad_reverse_args(request):
    return redirect(reverse("product", args=["abc"]))


def bad_url_tag(request):
    return render(request, "shop/bad_url.html")


def bad_lookup(request):
    return HttpResponse(Product.objects.filter(colour="red").count())


def no_such_product(request):
    return HttpResponse(Product.objects.get(sku="NOPE").name)


def two_products(request):
    return HttpResponse(Product.objects.get(price__gt=0).name)


def returns_none(request):
    Product.objects.count()


def denied(request):
    raise PermissionDenied


def suspicious(request):
    raise SuspiciousOperation("Attempted access to '../etc/passwd' denied.")


def invalid_save(request):
    return HttpResponse(ProductForm({"name": "", "price": "abc"}).save().pk)


def full_clean(request):
    Product(name="", sku="x" * 30, price=1).full_clean()
    return HttpResponse("clean")


def duplicate(request):
    Product.objects.create(name="Tea", sku="TEA-1", price=3)
    return HttpResponse("created")


def empty_page(request):
    return HttpResponse(Paginator(Product.objects.order_by("pk"), 10).page(99).object_list)


def bad_signature(request):
    return HttpResponse(signing.loads(request.GET.get("token", "abc:def")))


def stock(request):
    return HttpResponse(list(Product.objects.values_list("stock", flat=True)))


def bad_redirect(request):
    return redirect("no-such-view-name")


def bad_int(request):
    return HttpResponse(Product.objects.filter(pk="first").count())


def not_null(request):
    Product.objects.create(name="Milk", sku="MILK-1", price=None)
    return HttpResponse("created")
