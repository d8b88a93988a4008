import os

from django.db import models


class Product(models.Model):
    name = models.CharField(max_length=100)
    sku = models.CharField(max_length=20, unique=True)
    price = models.DecimalField(max_digits=8, decimal_places=2)
    if os.environ.get("SHOP_UNMIGRATED_FIELD"):
        # A field added to the model and never migrated.
        stock = models.IntegerField(default=0)

    def __str__(self):
        return self.name
