from django.urls import path

from shop import views

urlpatterns = [
    path("", views.index, name="index"),
    path("product/<int:pk>/", views.product, name="product"),
    path("only-get/", views.only_get),
    path("form/", views.order_form, name="order"),
    path("boom/", views.boom),
    path("bad-tag/", views.bad_tag),
    path("bad-filter/", views.bad_filter),
    path("missing-template/", views.missing_template),
    path("bad-reverse/", views.bad_reverse),
    path("bad-reverse-args/", views.bad_reverse_args),
    path("bad-url-tag/", views.bad_url_tag),
    path("bad-lookup/", views.bad_lookup),
    path("no-such-product/", views.no_such_product),
    path("two-products/", views.two_products),
    path("none/", views.returns_none),
    path("denied/", views.denied),
    path("suspicious/", views.suspicious),
    path("invalid-save/", views.invalid_save),
    path("full-clean/", views.full_clean),
    path("duplicate/", views.duplicate),
    path("empty-page/", views.empty_page),
    path("bad-signature/", views.bad_signature),
    path("stock/", views.stock),
    path("bad-redirect/", views.bad_redirect),
    path("bad-int/", views.bad_int),
    path("not-null/", views.not_null),
]
